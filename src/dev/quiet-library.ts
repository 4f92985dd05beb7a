// A development server's oidc-provider made without its warning about its in-memory store (demo-issuer, region-login).
const LIBRARY_WARNING = 'oidc-provider WARNING';
// eslint-disable-next-line no-control-regex -- the library colours its warning on a terminal
const TERMINAL_COLOURS = /\x1b\[[0-9;]*m/g;

/**
 * oidc-provider warns in capitals, on stderr, while it is made with an in-memory store: true, and
 * exactly what the demo issuer and the stand-in region login are. Their own notices say once what that
 * means; the library's words go to the debug log, where there is one, instead of being the loudest
 * line of every start.
 */
/* eslint-disable no-console -- the library writes to the console itself; this only holds its warnings back while it is made */
export function madeQuietly<T>(make: () => T, logger: { debug?(obj: object, msg?: string): void } = {}): T {
  const warn = console.warn;
  const held: string[] = [];
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.includes(LIBRARY_WARNING)) held.push(text.replace(TERMINAL_COLOURS, ''));
    else warn.apply(console, args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
    if (held.length > 0) logger.debug?.({ warnings: held }, 'oidc-provider\'s development-only warnings, expected in development');
  }
}
/* eslint-enable no-console */
