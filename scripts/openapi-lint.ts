// `npm run lint:openapi`: the published OpenAPI document through Spectral with .spectral.yaml.
import { lintOpenApi, publishedDocument } from '../test/support/openapi-lint.js';

const [findings = []] = await lintOpenApi(await publishedDocument());
for (const f of findings) console.log(`${['error', 'warning', 'info', 'hint'][f.severity] ?? f.severity}  ${f.code}  ${f.path.join('.')}  ${f.message}`);
console.log(findings.length === 0 ? 'OpenAPI document: no findings (spectral:oas, OWASP)' : `${findings.length} findings`);
process.exitCode = findings.length === 0 ? 0 : 1;
