/**
 * Personal API tokens: a user's scripts call the API with `Authorization: Bearer <token>` and act
 * as that user. Only a keyed hash of each token is stored; the token itself is shown once, when it
 * is created. Revoking a token deletes its row.
 */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './core.ts'

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The owner's label ("Nightly export"), shown in the list. */
    name: text('name').notNull(),
    /** HMAC-SHA256(API token key, token), hex: a copy of the table gives no usable token. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Written at most once a minute per token (see services/api-tokens.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_user_id_idx').on(t.userId)],
)

export type ApiTokenRow = typeof apiTokens.$inferSelect
