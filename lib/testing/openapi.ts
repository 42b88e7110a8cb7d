// Checking real answers against our OpenAPI document (lib/openapi) in tests: each answer's JSON against the schema
// the document gives for its operation and status, with ajv 8 (JSON Schema 2020-12, OpenAPI 3.1's dialect). The ajv
// is the one @seriousme/openapi-schema-validator (the document's linter) depends on, resolved from it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface AjvInstance {
  addSchema(schema: object, key: string): AjvInstance;
  compile(schema: object): ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
}

const ROOT = join(__dirname, '..', '..');
const fromLinter = createRequire(join(ROOT, 'node_modules', '@seriousme', 'openapi-schema-validator', 'package.json'));
const Ajv2020 = (fromLinter('ajv/dist/2020') as { default: new (opts: object) => AjvInstance }).default;

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>> };

/** `(path, method, status, body)` -> what is wrong with the answer (empty when it matches the document). */
export function answerChecker(doc: object): (path: string, method: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc, 'openapi');
  const compiled = new Map<string, ReturnType<AjvInstance['compile']>>();
  return (path, method, status, body) => {
    const op = (doc as Doc).paths[path]?.[method];
    if (!op) return [`${method.toUpperCase()} ${path} is not in the document`];
    const response = op.responses[String(status)];
    if (!response) return [`${method.toUpperCase()} ${path} has no answer ${status} in the document`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const key = `${path} ${method} ${status}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile({ $ref: `openapi#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema` })));
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${method.toUpperCase()} ${path} ${status}: ${e.instancePath || '(root)'} ${e.message ?? ''}`);
  };
}
