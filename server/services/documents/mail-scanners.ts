/**
 * Who a scanner address belongs to and who may write to it: the company whose invoice or expense
 * scanner address it is (the kind comes from the column), and its allowed senders.
 */
import { eq, or, sql } from 'drizzle-orm'
import type { FinancialKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { companies } from '../../db/schema.ts'

export interface Scanner {
  address: string
  companyId: number
  kind: FinancialKind
  enabled: boolean
  allowedSenders: string[]
}

/** The company and kind of a scanner address (compared lower-case), or null. */
export async function findScanner(db: AppDatabase, rawAddress: string): Promise<Scanner | null> {
  const address = rawAddress.trim().toLowerCase()
  const [row] = await db
    .select()
    .from(companies)
    .where(
      or(
        eq(sql`lower(${companies.invoiceScanner})`, address),
        eq(sql`lower(${companies.expenseScanner})`, address),
      ),
    )
    .orderBy(companies.id)
    .limit(1)
  if (!row) return null
  return {
    address,
    companyId: row.id,
    kind: row.invoiceScanner?.toLowerCase() === address ? 'invoice' : 'expense',
    enabled: row.enabled,
    allowedSenders: row.allowedSenders,
  }
}

/** An empty list lets anyone in; else the sender's address or its `@domain` must be listed. */
export function senderAllowed(allowed: readonly string[], sender: string): boolean {
  if (allowed.length === 0) return true
  const address = sender.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at <= 0) return false
  return allowed.includes(address) || allowed.includes(address.slice(at))
}
