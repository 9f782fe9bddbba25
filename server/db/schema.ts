/**
 * The database schema's one index (drizzle-kit reads this file; the app types its database with
 * `typeof schema`): core tables, account-security tables, personal API tokens and the document
 * pipeline's tables.
 */
export * from './schema/accounts.ts'
export * from './schema/api-tokens.ts'
export * from './schema/core.ts'
export * from './schema/documents.ts'
