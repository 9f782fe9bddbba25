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
  invalid_data: {
    en: 'A value read from the file cannot be stored',
    fr: 'Une valeur lue dans le fichier ne peut pas être enregistrée',
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
  einvoice_invalid: {
    en: 'The e-invoice XML is malformed, too large, declares entities or holds a value too long to keep (refused for safety)',
    fr: 'Le XML de la facture électronique est mal formé, trop volumineux, déclare des entités ou contient une valeur trop longue pour être conservée (refusé par sécurité)',
  },
  einvoice_mismatch: {
    en: 'The invoice number, date or total printed on the page differs from the e-invoice data',
    fr: 'Le numéro, la date ou le total imprimés sur la page diffèrent des données de la facture électronique',
  },
  einvoice_br_01: {
    en: 'E-invoice: the specification identifier is missing (BR-01)',
    fr: 'Facture électronique : l’identifiant de spécification est manquant (BR-01)',
  },
  einvoice_br_02: {
    en: 'E-invoice: the invoice number is missing (BR-02)',
    fr: 'Facture électronique : le numéro de facture est manquant (BR-02)',
  },
  einvoice_br_03: {
    en: 'E-invoice: the issue date is missing (BR-03)',
    fr: 'Facture électronique : la date d’émission est manquante (BR-03)',
  },
  einvoice_br_04: {
    en: 'E-invoice: the invoice type code is missing (BR-04)',
    fr: 'Facture électronique : le code de type de facture est manquant (BR-04)',
  },
  einvoice_br_05: {
    en: 'E-invoice: the invoice currency code is missing (BR-05)',
    fr: 'Facture électronique : le code de devise est manquant (BR-05)',
  },
  einvoice_br_06: {
    en: 'E-invoice: the seller name is missing (BR-06)',
    fr: 'Facture électronique : le nom du vendeur est manquant (BR-06)',
  },
  einvoice_br_07: {
    en: 'E-invoice: the buyer name is missing (BR-07)',
    fr: 'Facture électronique : le nom de l’acheteur est manquant (BR-07)',
  },
  einvoice_br_08: {
    en: 'E-invoice: the seller postal address is missing (BR-08)',
    fr: 'Facture électronique : l’adresse postale du vendeur est manquante (BR-08)',
  },
  einvoice_br_16: {
    en: 'E-invoice: the invoice has no line (BR-16)',
    fr: 'Facture électronique : la facture n’a aucune ligne (BR-16)',
  },
  einvoice_br_co_10: {
    en: 'E-invoice: the sum of the line net amounts differs from the lines total (BR-CO-10)',
    fr: 'Facture électronique : la somme des montants nets des lignes diffère du total des lignes (BR-CO-10)',
  },
  einvoice_br_co_13: {
    en: 'E-invoice: the total excluding VAT is not the lines total minus allowances plus charges (BR-CO-13)',
    fr: 'Facture électronique : le total HT n’est pas le total des lignes moins les remises plus les frais (BR-CO-13)',
  },
  einvoice_br_co_14: {
    en: 'E-invoice: the VAT total differs from the sum of the VAT breakdown (BR-CO-14)',
    fr: 'Facture électronique : le total de TVA diffère de la somme du détail de TVA (BR-CO-14)',
  },
  einvoice_br_co_15: {
    en: 'E-invoice: the total including VAT is not the total excluding VAT plus VAT (BR-CO-15)',
    fr: 'Facture électronique : le total TTC n’est pas le total HT plus la TVA (BR-CO-15)',
  },
  einvoice_br_co_16: {
    en: 'E-invoice: the amount due is not the total minus prepaid plus rounding (BR-CO-16)',
    fr: 'Facture électronique : le montant dû n’est pas le total moins l’acompte plus l’arrondi (BR-CO-16)',
  },
  iban_changed: {
    en: 'The supplier’s IBAN differs from the one it used before: confirm the change with the supplier before paying',
    fr: 'L’IBAN du fournisseur diffère de celui utilisé auparavant : confirmez ce changement auprès du fournisseur avant de payer',
  },
} as const

export type QualityCode = keyof typeof QUALITY_MESSAGES
export type Lang = 'en' | 'fr'

/**
 * A finding's message in one language; with its `quality_details` entry, made specific: which
 * fields the page and the XML disagree on and their two values, the IBAN the supplier used before.
 */
export function qualityMessage(code: string, lang: Lang, detail?: unknown): string {
  const specific = detail && typeof detail === 'object' ? detailedMessage(code, lang, detail) : null
  return specific ?? (QUALITY_MESSAGES as Record<string, { en: string; fr: string }>)[code]?.[lang] ?? code
}

const FIELD_NAMES: Record<string, { en: string; fr: string }> = {
  invoice_number: { en: 'invoice number', fr: 'numéro de facture' },
  document_date: { en: 'date', fr: 'date' },
  business_name: { en: 'supplier name', fr: 'nom du fournisseur' },
  business_address: { en: 'supplier address', fr: 'adresse du fournisseur' },
  vat_number: { en: 'VAT number', fr: 'numéro de TVA' },
  iban: { en: 'IBAN', fr: 'IBAN' },
  currency: { en: 'currency', fr: 'devise' },
  total_charge_excluding_vat: { en: 'total excluding VAT', fr: 'total HT' },
  total_vat_amount: { en: 'VAT amount', fr: 'montant de TVA' },
  total_invoice_including_vat: { en: 'total including VAT', fr: 'total TTC' },
}

/** The e-invoice terms a refusal names (text-rule.ts), in both languages. */
const TERM_NAMES: Record<string, { en: string; fr: string }> = {
  'BT-1': { en: 'invoice number', fr: 'numéro de facture' },
  'BT-3': { en: 'invoice type code', fr: 'code de type de facture' },
  'BT-5': { en: 'currency code', fr: 'code de devise' },
  'BT-20': { en: 'payment terms', fr: 'conditions de paiement' },
  'BT-24': { en: 'specification identifier', fr: 'identifiant de spécification' },
  'BT-27': { en: 'seller name', fr: 'nom du vendeur' },
  'BT-31': { en: 'seller VAT identifier', fr: 'numéro de TVA du vendeur' },
  'BT-35': { en: 'seller address', fr: 'adresse du vendeur' },
  'BT-44': { en: 'buyer name', fr: 'nom de l’acheteur' },
  'BT-48': { en: 'buyer VAT identifier', fr: 'numéro de TVA de l’acheteur' },
  'BT-50': { en: 'buyer address', fr: 'adresse de l’acheteur' },
  'BT-84': { en: 'payment account (IBAN)', fr: 'compte de paiement (IBAN)' },
  'BT-109': { en: 'total excluding VAT', fr: 'total HT' },
  'BT-110': { en: 'VAT total', fr: 'total de TVA' },
  'BT-112': { en: 'total including VAT', fr: 'total TTC' },
  'BT-118': { en: 'VAT category code', fr: 'code de catégorie de TVA' },
  'BT-126': { en: 'line identifier', fr: 'identifiant de ligne' },
  'BT-130': { en: 'unit of measure', fr: 'unité de mesure' },
  'BT-153': { en: 'item name', fr: 'désignation de l’article' },
}

type Texts = Record<Lang, (what: string, limit: string) => string>
type Problem = 'too_long' | 'out_of_range' | 'too_large'
/** What a refused value's message says, by code and problem (`too_large`: the e-invoice as a whole). */
const REFUSAL_TEXTS: Record<'einvoice_invalid' | 'invalid_data', Partial<Record<Problem, Texts>>> = {
  einvoice_invalid: {
    too_long: {
      en: (what, limit) => `E-invoice: the ${what} is longer than ${limit} characters`,
      fr: (what, limit) => `Facture électronique : le champ ${what} dépasse ${limit} caractères`,
    },
    out_of_range: {
      en: (what) => `E-invoice: the ${what} is out of range`,
      fr: (what) => `Facture électronique : le champ ${what} est hors limites`,
    },
    too_large: {
      en: (_, limit) => `E-invoice: the data read from the XML is larger than ${limit} MB`,
      fr: (_, limit) => `Facture électronique : les données lues dans le XML dépassent ${limit} Mo`,
    },
  },
  invalid_data: {
    too_long: {
      en: (what, limit) => `The ${what} read from the file is longer than ${limit} characters`,
      fr: (what, limit) => `Le champ ${what} lu dans le fichier dépasse ${limit} caractères`,
    },
    out_of_range: {
      en: (what) => `The ${what} read from the file is out of range`,
      fr: (what) => `Le champ ${what} lu dans le fichier est hors limites`,
    },
  },
}

/** A refused value (field-rule.ts): which field (or e-invoice term) and why, in one language. */
function refusalMessage(
  code: 'einvoice_invalid' | 'invalid_data',
  lang: Lang,
  detail: object,
): string | null {
  const d = detail as { field?: unknown; term?: unknown; limit?: unknown; problem?: unknown }
  const texts = REFUSAL_TEXTS[code][(typeof d.problem === 'string' ? d.problem : 'too_long') as Problem]
  if (!texts || typeof d.limit !== 'number') return null
  const limit = d.limit.toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB')
  if (d.problem === 'too_large') return texts[lang]('', String(d.limit / (1024 * 1024)))
  const einvoice = code === 'einvoice_invalid'
  const named = einvoice
    ? typeof d.term === 'string' && TERM_NAMES[d.term]
    : typeof d.field === 'string' && FIELD_NAMES[d.field]
  if (!named) return null
  return texts[lang](einvoice ? `${named[lang]} (${d.term})` : named[lang], limit)
}

const formatValue = (value: unknown, lang: Lang) =>
  typeof value === 'number'
    ? value.toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      })
    : String(value)

/** An IBAN in groups of four, as it is printed. */
const groupedIban = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')

function detailedMessage(code: string, lang: Lang, detail: object): string | null {
  if (code === 'einvoice_invalid' || code === 'invalid_data') return refusalMessage(code, lang, detail)
  if (code === 'einvoice_mismatch' && 'fields' in detail && Array.isArray(detail.fields)) {
    const parts = detail.fields.flatMap((d: { field?: unknown; page?: unknown; xml?: unknown }) => {
      const name = typeof d?.field === 'string' ? FIELD_NAMES[d.field]?.[lang] : undefined
      if (!name) return []
      const [page, xml] = [formatValue(d.page, lang), formatValue(d.xml, lang)]
      return [
        lang === 'fr'
          ? `${name} ${page} sur la page, ${xml} dans le XML`
          : `${name} ${page} on the page, ${xml} in the XML`,
      ]
    })
    if (parts.length === 0) return null
    return lang === 'fr'
      ? `La page diffère des données de la facture électronique : ${parts.join(' ; ')}`
      : `The page differs from the e-invoice data: ${parts.join('; ')}`
  }
  if (code === 'iban_changed' && 'previous_iban' in detail && typeof detail.previous_iban === 'string') {
    const before = groupedIban(detail.previous_iban)
    return lang === 'fr'
      ? `L’IBAN du fournisseur diffère de celui utilisé auparavant (${before}) : confirmez ce changement auprès du fournisseur avant de payer`
      : `The supplier’s IBAN differs from the one it used before (${before}): confirm the change with the supplier before paying`
  }
  return null
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
