/**
 * The /docs page's Authorize dialog as a person meets it (docs/running.md#the-demo-defaults-and-what-npm-start-runs):
 * the subscription key, filled in, then the OAuth sign-in with its button in view, and nothing empty.
 * Swagger UI lists one block per security scheme, in the document's order, each with its own button:
 * the key in the query (the vendor's alternative to the header) came second, an empty field whose
 * *Authorize* was the first on screen, and the OAuth block's button sat below its thirteen scopes.
 * /openapi.json keeps every scheme; only the page's own copy of the document leaves that one out.
 */
import { QUERY_KEY_SCHEME } from './security.js';

type Requirement = Record<string, unknown>;
interface Operation { security?: Requirement[] }

/** The document as the docs page shows it: the same, without the query-parameter key scheme. */
export function forTheDocsPage<T extends Record<string, unknown>>(document: T): T {
  const components = document.components as { securitySchemes?: Record<string, unknown> } | undefined;
  if (components?.securitySchemes !== undefined) delete components.securitySchemes[QUERY_KEY_SCHEME];
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(item)) {
      if (Array.isArray(operation.security)) operation.security = operation.security.filter((r) => !(QUERY_KEY_SCHEME in r));
    }
  }
  return document;
}

/**
 * The dialog's style: a public client (PKCE) has no secret, so its empty field goes; Swagger UI's two
 * general paragraphs about scopes go; the scopes scroll in a box of their own; and the OAuth block's
 * reference text (the token rules, the endpoints) is shown after its sign-in button instead of before
 * it, so that the button is in view below the key's block. Nothing in that text can take focus, so
 * the keyboard meets the fields and the button in the order they are seen. The dialog takes the
 * window's height (Swagger UI caps its content at 540 px), so both blocks fit a 1280×720 window.
 */
export const AUTHORIZE_DIALOG_CSS = `
.swagger-ui .dialog-ux .modal-ux-content { max-height: calc(100vh - 6.5rem); }
.swagger-ui .dialog-ux .scope-def { display: none; }
.swagger-ui .dialog-ux .wrapper:has(> label[for^="client_secret_"]) { display: none; }
.swagger-ui .dialog-ux div:has(> .scopes) { display: flex; flex-direction: column; }
.swagger-ui .dialog-ux div:has(> .scopes) > .renderedMarkdown, .swagger-ui .dialog-ux div:has(> .scopes) > p { order: 1; }
.swagger-ui .dialog-ux .scopes { max-height: 6.5rem; overflow-y: auto; border: 1px solid #d9d9d9; padding: 0 .5rem; }
.swagger-ui .dialog-ux .scopes h2 { position: sticky; top: 0; z-index: 1; background: #fff; margin: 0; padding: .25rem 0; }
`;
