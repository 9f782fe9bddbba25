/**
 * The contract shared by the browser app and the server: valibot schemas of every payload and
 * entity, the document kinds with their accepted file types, and the status codes. Nothing here
 * knows a URL, the UI or the database. The kinds' translated labels (`document-labels.ts`) are not
 * re-exported: they are Lingui macros, compiled for the browser only. Nor are the corrections'
 * schemas (`document-corrections.ts`): only the server checks them, and their IBAN library would
 * travel in the browser's first chunk through this barrel. Nor the API tokens' (`api-tokens.ts`):
 * the browser needs them only in the settings section's own chunk. Nor the live events'
 * (`live-events.ts`): the browser reads them in the live updates' chunk.
 */
export * from './accounts.ts'
export * from './administration.ts'
export * from './common.ts'
export * from './document-records.ts'
export * from './documents.ts'
export * from './einvoice.ts'
export * from './messages.ts'
export * from './text-rule.ts'
