/**
 * Quality data: stable codes with English and French messages. Errors make a document FAILED,
 * warnings leave it COMPLETED. The rules are pure; duplicates are looked up by the caller.
 */
import { isValidIBAN } from 'ibantools'
import { checkVAT, countries } from 'jsvat'
import type { ExtractedFields } from '../extraction/fields.ts'

const QUALITY_MESSAGES = {
  unreadable_file: { en: 'The file could not be read', fr: 'Le fichier est illisible' },
  no_text: { en: 'No text could be read from the file', fr: 'Aucun texte lisible dans le fichier' },
  file_too_large_to_process: {
    en: 'The file is too large or too complex to process (image size, memory or time limit)',
    fr: 'Le fichier est trop volumineux ou trop complexe pour être traité (taille d’image, mémoire ou durée)',
  },
  too_many_pages: {
    en: 'The file has too many pages to process',
    fr: 'Le fichier comporte trop de pages pour être traité',
  },
  processing_failed: {
    en: 'Processing failed after several attempts',
    fr: 'Le traitement a échoué après plusieurs tentatives',
  },
  missing_invoice_number: { en: 'The invoice number is missing', fr: 'Le numéro de facture est manquant' },
  missing_invoice_date: { en: 'The invoice date is missing', fr: 'La date de facture est manquante' },
  missing_expense_date: { en: 'The expense date is missing', fr: 'La date de la dépense est manquante' },
  missing_business_name: { en: 'The supplier name is missing', fr: 'Le nom du fournisseur est manquant' },
  missing_total: { en: 'The total including VAT is missing', fr: 'Le total TTC est manquant' },
  iban_checksum: { en: 'The IBAN checksum is invalid', fr: 'La clé de contrôle de l’IBAN est invalide' },
  totals_mismatch: {
    en: 'Total excluding VAT plus VAT does not equal the total including VAT',
    fr: 'Le total HT plus la TVA ne correspond pas au total TTC',
  },
  vat_number_invalid: {
    en: 'The VAT number fails its format or check key',
    fr: 'Le numéro de TVA est invalide (format ou clé de contrôle)',
  },
  date_in_future: { en: 'The document date is in the future', fr: 'La date du document est dans le futur' },
  duplicate: {
    en: 'Likely duplicate of an earlier document (same supplier and number, or same file)',
    fr: 'Doublon probable d’un document précédent (même fournisseur et numéro, ou même fichier)',
  },
  iban_changed: {
    en: 'The supplier’s IBAN differs from the one it used before: confirm the change with the supplier before paying',
    fr: 'L’IBAN du fournisseur diffère de celui utilisé auparavant : confirmez ce changement auprès du fournisseur avant de payer',
  },
} as const

export type QualityCode = keyof typeof QUALITY_MESSAGES
export type Lang = 'en' | 'fr'

export function qualityMessage(code: string, lang: Lang): string {
  return (QUALITY_MESSAGES as Record<string, { en: string; fr: string }>)[code]?.[lang] ?? code
}

export interface QualityResult {
  errors: QualityCode[]
  warnings: QualityCode[]
}

/** The checks that need nothing but the fields and the date of processing. */
export function assessQuality(
  kind: 'invoice' | 'expense',
  fields: ExtractedFields,
  options: { today: string; duplicate: boolean },
): QualityResult {
  const errors: QualityCode[] = []
  const warnings: QualityCode[] = []
  if (kind === 'invoice' && !fields.invoice_number) errors.push('missing_invoice_number')
  if (!fields.document_date) errors.push(kind === 'invoice' ? 'missing_invoice_date' : 'missing_expense_date')
  if (!fields.business_name) errors.push('missing_business_name')
  if (fields.total_invoice_including_vat === null) errors.push('missing_total')
  if (fields.iban && !isValidIBAN(fields.iban)) errors.push('iban_checksum')
  const {
    total_charge_excluding_vat: excl,
    total_vat_amount: vat,
    total_invoice_including_vat: incl,
  } = fields
  if (excl !== null && vat !== null && incl !== null && Math.abs(excl + vat - incl) > 0.0101) {
    errors.push('totals_mismatch')
  }
  if (fields.vat_number && !checkVAT(fields.vat_number, countries).isValid)
    warnings.push('vat_number_invalid')
  if (fields.document_date && fields.document_date > options.today) warnings.push('date_in_future')
  if (options.duplicate) warnings.push('duplicate')
  return { errors, warnings }
}

/** Key for "same supplier and same invoice number" (case and spacing do not count). */
export function duplicateKey(fields: Pick<ExtractedFields, 'business_name' | 'invoice_number'>) {
  if (!fields.business_name || !fields.invoice_number) return null
  return {
    name: fields.business_name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase(),
    number: fields.invoice_number.replace(/\s+/g, '').toLowerCase(),
  }
}
