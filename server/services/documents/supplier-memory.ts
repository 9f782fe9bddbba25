/**
 * A company's supplier memory: what its users corrected for a supplier (name, address) and the
 * IBAN they confirmed, keyed by the supplier's VAT number, else its IBAN. Processing a later
 * document of the same company applies it; nothing is ever read across companies.
 */
import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm'
import { normaliseIban, normaliseVatNumber } from '../../../contract/document-corrections.ts'
import type { AppDatabase } from '../../db/client.ts'
import { documents, type FieldSource, supplierMemories } from '../../db/schema.ts'
import type { ExtractedFields } from '../extraction/fields.ts'

type SupplierFields = Pick<ExtractedFields, 'business_name' | 'business_address' | 'vat_number' | 'iban'>
type SupplierKey = { keyKind: 'vat' | 'iban'; key: string }

const vatOf = (fields: SupplierFields) => (fields.vat_number ? normaliseVatNumber(fields.vat_number) : null)
const ibanOf = (fields: SupplierFields) => (fields.iban ? normaliseIban(fields.iban) : null)

/** The supplier's key: its VAT number, else its IBAN; null when it has neither. */
function supplierKey(fields: SupplierFields): SupplierKey | null {
  const vat = vatOf(fields)
  if (vat) return { keyKind: 'vat', key: vat }
  const iban = ibanOf(fields)
  return iban ? { keyKind: 'iban', key: iban } : null
}

async function findMemory(db: AppDatabase, companyId: number, key: SupplierKey) {
  const [memory] = await db
    .select()
    .from(supplierMemories)
    .where(
      and(
        eq(supplierMemories.companyId, companyId),
        eq(supplierMemories.keyKind, key.keyKind),
        eq(supplierMemories.key, key.key),
      ),
    )
  return memory ?? null
}

/**
 * Processing: the remembered name and address replace what the page printed (the memory wins),
 * with `memory` as their source.
 */
export async function recallSupplier<T extends SupplierFields>(
  db: AppDatabase,
  companyId: number,
  fields: T,
): Promise<{ fields: T; sources: Record<string, FieldSource> }> {
  const key = supplierKey(fields)
  const memory = key ? await findMemory(db, companyId, key) : null
  if (!memory) return { fields, sources: {} }
  const sources: Record<string, FieldSource> = {}
  const recalled = { ...fields }
  if (memory.businessName !== null) {
    recalled.business_name = memory.businessName
    sources.business_name = 'memory'
  }
  if (memory.businessAddress !== null) {
    recalled.business_address = memory.businessAddress
    sources.business_address = 'memory'
  }
  return { fields: recalled, sources }
}

/**
 * A user's correction: remembers the supplier's name and address (when the correction named
 * them) and the IBAN (when it named one: saving an IBAN confirms it), under the supplier's key
 * as the corrected document now gives it.
 */
export async function rememberSupplier(
  db: AppDatabase,
  input: {
    companyId: number
    userId: number
    fields: SupplierFields
    remember: { nameAndAddress: boolean; iban: boolean }
    now: Date
  },
): Promise<void> {
  const { fields, remember } = input
  const key = supplierKey(fields)
  if (!key || !(remember.nameAndAddress || remember.iban)) return
  const set = {
    ...(remember.nameAndAddress && {
      businessName: fields.business_name,
      businessAddress: fields.business_address,
    }),
    ...(remember.iban && { iban: ibanOf(fields) }),
    updatedBy: input.userId,
    updatedAt: input.now,
  }
  await db
    .insert(supplierMemories)
    .values({ companyId: input.companyId, ...key, ...set })
    .onConflictDoUpdate({
      target: [supplierMemories.companyId, supplierMemories.keyKind, supplierMemories.key],
      set,
    })
}

/**
 * The IBAN this supplier (same VAT number, else same name) was known by in the company when it
 * differs from the document's: the one a user confirmed, else the one of its latest earlier
 * COMPLETED invoice. Null when the document has no IBAN or the IBAN is the known one.
 */
export async function previousIban(
  db: AppDatabase,
  doc: { id: number; companyId: number },
  fields: SupplierFields,
): Promise<string | null> {
  const iban = ibanOf(fields)
  if (!iban) return null
  const vat = vatOf(fields)
  const memory = await findMemory(
    db,
    doc.companyId,
    vat ? { keyKind: 'vat', key: vat } : { keyKind: 'iban', key: iban },
  )
  if (memory?.iban) return memory.iban === iban ? null : memory.iban
  const name = fields.business_name?.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()
  if (!vat && !name) return null
  const sameSupplier = vat
    ? sql`upper(regexp_replace(${documents.vatNumber}, '[[:space:].-]', '', 'g')) = ${vat}`
    : sql`lower(regexp_replace(trim(${documents.businessName}), '\\s+', ' ', 'g')) = ${name}`
  const [earlier] = await db
    .select({ iban: documents.iban })
    .from(documents)
    .where(
      and(
        eq(documents.companyId, doc.companyId),
        eq(documents.kind, 'invoice'),
        eq(documents.status, 'COMPLETED'),
        lt(documents.id, doc.id),
        isNotNull(documents.iban),
        sameSupplier,
      ),
    )
    .orderBy(desc(documents.id))
    .limit(1)
  const known = earlier?.iban ? normaliseIban(earlier.iban) : null
  return known && known !== iban ? known : null
}
