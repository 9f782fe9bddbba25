/**
 * A seeded generator of expense documents in layouts the extraction engine was not written
 * against (`node --import tsx scripts/novel-expenses.ts --seed 5150 --count 60 --out DIR
 * [--scans 0.15]`): French, English and German till tickets of cafés and restaurants, fuel
 * station tickets, taxi receipts and hotel folios. Tickets are printed on a till roll's narrow
 * page in a fixed-width font; the folio on A4 with a guest block (another party), arrival and
 * departure dates (not the issue date), a tourist tax outside VAT and a balance after payment
 * (never the total). Payment lines (card, cash tendered, change given), VAT as a rate table or as
 * "of which VAT" lines, dates with the time beside them. Written like scripts/novel-invoices.ts:
 * DIR/files, DIR/truth.jsonl in shared/corpus's shape (`kind: "expense"`, the truth's `template`
 * the document's kind), scored by tests/extraction/corpus.ts.
 */
import {
  CITIES,
  chance,
  deVat,
  digits,
  esc,
  FIRST,
  formatDate,
  frVat,
  gbVat,
  int,
  iso,
  LAST,
  type Lang,
  LEGAL_FORMS,
  money,
  type NovelTruth,
  pick,
  type Rng,
  rngOf,
  round2,
  STREETS,
  writeDocuments,
  type Ymd,
} from './novel-invoices.ts'

export const EXPENSE_KINDS = ['till', 'fuel', 'taxi', 'hotel'] as const
type Kind = (typeof EXPENSE_KINDS)[number]

/** Trade names: a kind's first word and a second part. */
const TRADE: Record<Kind, Record<Lang, [string[], string[]]>> = {
  till: {
    fr: [
      ['Brasserie', 'Café', 'Bistrot', 'Crêperie', 'Restaurant'],
      ['des Halles', 'du Théâtre', 'Le Comptoir', 'de la Gare', 'Les Tilleuls', 'du Port'],
    ],
    en: [
      ['The', 'The Old', 'The Little'],
      ['Kettle', 'Larder', 'Anchor', 'Swan Kitchen', 'Fig Tree', 'Crown Bistro'],
    ],
    de: [
      ['Gasthaus', 'Café', 'Bistro', 'Restaurant'],
      ['Zur Linde', 'am Markt', 'Sonnenhof', 'Alte Post', 'Lindengarten', 'Am Hafen'],
    ],
  },
  fuel: {
    fr: [
      ['Relais', 'Station', 'Aire'],
      ['des Vignes', 'du Lac', 'de la Forêt', 'Saint-Michel'],
    ],
    en: [
      ['Northway', 'Ridgeway', 'Meadow'],
      ['Services', 'Fuel Stop', 'Filling Station'],
    ],
    de: [
      ['Tankstelle', 'Autohof'],
      ['Am Ring', 'Nordkreuz', 'Lindenau', 'Talblick'],
    ],
  },
  taxi: {
    fr: [
      ['Taxi', 'Taxis'],
      ['Étoile', 'du Centre', 'Rive Gauche', 'Azur'],
    ],
    en: [
      ['City', 'Metro', 'Riverside'],
      ['Cabs', 'Cars', 'Taxis'],
    ],
    de: [
      ['Taxi', 'Funktaxi'],
      ['Zentrale Nord', 'Schmidt', 'am Dom', 'Express'],
    ],
  },
  hotel: {
    fr: [
      ['Hôtel', 'Hôtel Le'],
      ['des Voyageurs', 'Belvédère', 'du Parc', 'Saint-Jacques'],
    ],
    en: [
      ['The', 'Harbour', 'Kings'],
      ['Harbour Hotel', 'Lodge', 'Hotel', 'Court Hotel'],
    ],
    de: [
      ['Hotel', 'Hotel Zum'],
      ['Goldenen Hirsch', 'Post', 'Rheinblick', 'Stadtpark'],
    ],
  },
}

/** The till's items: name, unit price, VAT rate. */
const ITEMS: Record<Kind, Record<Lang, [string, number, number][]>> = {
  till: {
    fr: [
      ['Café expresso', 2.2, 10],
      ['Menu du jour', 16.5, 10],
      ['Croque-monsieur', 8.9, 10],
      ['Verre de vin rouge', 5.5, 20],
      ['Eau minérale 50cl', 3.2, 10],
      ['Tarte aux pommes', 4.8, 10],
    ],
    en: [
      ['Flat white', 3.4, 20],
      ['Full breakfast', 11.95, 20],
      ['Soup of the day', 6.5, 20],
      ['Sparkling water', 2.8, 20],
      ['Club sandwich', 8.75, 20],
    ],
    de: [
      ['Milchkaffee', 3.6, 19],
      ['Tagesgericht', 12.9, 19],
      ['Apfelschorle 0,4l', 3.9, 19],
      ['Brezel', 1.8, 7],
      ['Käsekuchen', 3.8, 7],
    ],
  },
  fuel: {
    fr: [
      ['SP95-E10', 1.859, 20],
      ['Gazole', 1.729, 20],
    ],
    en: [
      ['Unleaded', 1.429, 20],
      ['Diesel', 1.519, 20],
    ],
    de: [
      ['Super E10', 1.789, 19],
      ['Diesel', 1.669, 19],
    ],
  },
  taxi: { fr: [], en: [], de: [] },
  hotel: { fr: [], en: [], de: [] },
}

const L = {
  ticket: {
    fr: ['Ticket N°', 'Ticket', 'Note N°'],
    en: ['Receipt #', 'Receipt No.', 'Check #'],
    de: ['Beleg-Nr.', 'Bon-Nr.', 'Beleg'],
  },
  total: {
    fr: ['TOTAL TTC', 'NET A PAYER', 'TOTAL'],
    en: ['TOTAL', 'Total due', 'AMOUNT DUE'],
    de: ['SUMME', 'Gesamt', 'Zu zahlen'],
  },
  net: { fr: 'Total HT', en: 'Net', de: 'Netto' },
  ofWhich: { fr: 'dont TVA', en: 'incl. VAT', de: 'enth. MwSt.' },
  rateHead: {
    fr: ['Taux', 'HT', 'TVA', 'TTC'],
    en: ['VAT rate', 'Net', 'VAT', 'Gross'],
    de: ['MwSt', 'Netto', 'Steuer', 'Brutto'],
  },
  card: {
    fr: ['CB', 'Carte bancaire', 'CB SANS CONTACT'],
    en: ['Card', 'VISA', 'Contactless'],
    de: ['EC-Karte', 'Karte', 'Girocard'],
  },
  cash: { fr: 'ESPECES', en: 'Cash', de: 'Bar' },
  change: { fr: 'RENDU', en: 'Change', de: 'Rückgeld' },
  vatId: { fr: 'TVA intracom.', en: 'VAT No', de: 'USt-IdNr.' },
  thanks: {
    fr: 'Merci de votre visite !',
    en: 'Thank you, see you soon',
    de: 'Vielen Dank für Ihren Besuch',
  },
  table: { fr: 'Table', en: 'Table', de: 'Tisch' },
  server: { fr: 'Serveur', en: 'Served by', de: 'Bedienung' },
  pump: { fr: 'Pompe', en: 'Pump', de: 'Säule' },
}

interface Expense {
  html: string
  /** The page in CSS pixels (a till roll's width, its content's height; A4 for the folio). */
  size: { width: number; height: number } | 'A4'
  truth: NovelTruth
}

const vatOfRate = (lang: Lang, r: Rng) =>
  lang === 'fr' ? pick(r, [frVat(r)]) : lang === 'de' ? deVat(r) : gbVat(r)

/** Gross amounts per rate split into net and VAT (prices include VAT). */
function byRate(lines: { amount: number; rate: number }[]) {
  const rates = new Map<number, number>()
  for (const l of lines) rates.set(l.rate, round2((rates.get(l.rate) ?? 0) + l.amount))
  return [...rates].map(([rate, gross]) => {
    const net = round2(gross / (1 + rate / 100))
    return { rate, gross, net, vat: round2(gross - net) }
  })
}

/** The merchant: its trade name, street and town; a legal operator printed under it sometimes. */
function merchant(r: Rng, lang: Lang, kind: Kind) {
  const [a, b] = TRADE[kind][lang]
  const name = `${pick(r, a)} ${pick(r, b)}`
  const street =
    lang === 'en'
      ? `${int(r, 1, 240)} ${pick(r, STREETS.en)}`
      : lang === 'fr'
        ? `${int(r, 1, 180)} ${pick(r, STREETS.fr)}`
        : `${pick(r, STREETS.de)} ${int(r, 1, 120)}`
  const [pc, town] = pick(r, CITIES[lang])
  const city = lang === 'en' ? `${town} ${pc}` : `${pc} ${town}`
  const operator = chance(r, 0.5) ? `${pick(r, LAST)} ${pick(r, LEGAL_FORMS[lang])}` : null
  return { name, street, city, address: `${street}, ${city}`, vat: vatOfRate(lang, r), operator }
}

/** The truth's fields of an expense: its merchant's party, no IBAN, VAT charged. */
function truthFields(
  number: string,
  day: Ymd,
  m: ReturnType<typeof merchant>,
  currency: string,
  t: { vat: number; net: number; gross: number },
): Record<string, unknown> {
  return {
    invoice_number: number,
    expense_date: iso(day),
    business_name: m.name,
    business_address: m.address,
    vat_number: m.vat,
    iban: null,
    currency,
    has_vat: true,
    total_vat_amount: t.vat,
    total_charge_excluding_vat: t.net,
    total_invoice_including_vat: t.gross,
  }
}

const mono = `font-family: 'DejaVu Sans Mono', monospace; font-size: 8.5pt; color: #111;`
const row = (left: string, right: string) =>
  `<div class="r"><span>${esc(left)}</span><span>${esc(right)}</span></div>`

/** A till or fuel ticket on a till roll. */
function ticket(
  r: Rng,
  lang: Lang,
  kind: 'till' | 'fuel',
): Omit<Expense, 'truth'> & { fields: Record<string, unknown> } {
  const m = merchant(r, lang, kind)
  const cur = lang === 'en' ? 'GBP' : 'EUR'
  const mo = money(lang, cur, r)
  const bare = (n: number) =>
    mo
      .fmt(n)
      .replace(/\s?(€|EUR|GBP)$/, '')
      .replace(/^[£$€]/, '')
  const day: Ymd = { y: int(r, 2019, 2026), m: int(r, 1, 10), d: int(r, 1, 28) }
  const time = `${String(int(r, 7, 22)).padStart(2, '0')}:${String(int(r, 0, 59)).padStart(2, '0')}`
  const number = `${pick(r, ['', 'T', 'A'])}${digits(r, int(r, 4, 6))}`
  const lines: { text: string; amount: number; rate: number }[] = []
  if (kind === 'till') {
    for (let k = int(r, 1, 5); k > 0; k--) {
      const [label, price, rate] = pick(r, ITEMS.till[lang])
      const q = int(r, 1, 3)
      lines.push({ text: `${q} x ${label}`, amount: round2(q * price), rate })
    }
  } else {
    const [fuel, price, rate] = pick(r, ITEMS.fuel[lang])
    const litres = int(r, 1500, 6500) / 100
    const amount = round2(litres * price)
    lines.push({ text: `${L.pump[lang]} ${int(r, 1, 12)} ${fuel}`, amount, rate })
    lines.push({ text: `  ${bare(litres)} L x ${bare(price).replace(/(\d)(\d)$/, '$1$2')}`, amount: 0, rate })
  }
  const rates = byRate(lines.filter((l) => l.amount > 0))
  const gross = round2(rates.reduce((n, x) => n + x.gross, 0))
  const net = round2(rates.reduce((n, x) => n + x.net, 0))
  const vat = round2(gross - net)
  const dateText = `${formatDate(r, lang, day, lang === 'en' ? 4 : 0)} ${time}`
  const head = [
    `<div class="c b big">${esc(kind === 'till' && chance(r, 0.6) ? m.name.toUpperCase() : m.name)}</div>`,
    `<div class="c">${esc(m.street)}</div><div class="c">${esc(m.city)}</div>`,
    `<div class="c">Tel. ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}</div>`,
    m.operator ? `<div class="c">${esc(m.operator)}</div>` : '',
    `<div class="c">${esc(L.vatId[lang])} ${m.vat}</div>`,
  ].join('')
  const meta =
    kind === 'till' && chance(r, 0.6)
      ? `${row(`${L.table[lang]} ${int(r, 1, 40)}`, `${L.server[lang]}: ${pick(r, FIRST)}`)}${row(`${pick(r, L.ticket[lang])} ${number}`, dateText)}`
      : `${row(dateText, `${pick(r, L.ticket[lang])} ${number}`)}`
  const items = lines.map((l) => row(l.text, l.amount > 0 ? bare(l.amount) : '')).join('')
  const totalLabel = pick(r, L.total[lang])
  const vatHtml = chance(r, 0.5)
    ? `<table><tr>${L.rateHead[lang].map((h) => `<th>${h}</th>`).join('')}</tr>${rates
        .map(
          (x) =>
            `<tr><td>${x.rate}%</td><td>${bare(x.net)}</td><td>${bare(x.vat)}</td><td>${bare(x.gross)}</td></tr>`,
        )
        .join('')}</table>`
    : `${row(L.net[lang], bare(net))}${rates.map((x) => row(`${L.ofWhich[lang]} ${x.rate} %`, bare(x.vat))).join('')}`
  const paid = chance(r, 0.5)
    ? row(pick(r, L.card[lang]), bare(gross))
    : (() => {
        const tendered = Math.ceil(gross / 10) * 10 + (chance(r, 0.5) ? 10 : 0)
        return `${row(L.cash[lang], bare(tendered))}${row(L.change[lang], bare(round2(tendered - gross)))}`
      })()
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>
  html, body { margin: 0; } body { ${mono} padding: 10px 12px; width: 278px; box-sizing: border-box; }
  .c { text-align: center; } .b { font-weight: bold; } .big { font-size: 11pt; margin-bottom: 2px; }
  .r { display: flex; justify-content: space-between; gap: 8px; } hr { border: 0; border-top: 1px dashed #333; margin: 5px 0; }
  table { width: 100%; border-collapse: collapse; font-size: 8pt; } th, td { text-align: right; padding: 0 2px; } th:first-child, td:first-child { text-align: left; }
  </style></head><body data-scan-ready>${head}<hr>${meta}<hr>${items}<hr>${row(totalLabel, `${bare(gross)} ${cur === 'EUR' ? 'EUR' : ''}`.trim())}<hr>${vatHtml}<hr>${paid}<hr><div class="c">${esc(L.thanks[lang])}</div></body></html>`
  return {
    html,
    size: { width: 278, height: 0 },
    fields: truthFields(number, day, m, cur, { vat, net: net, gross: gross }),
  }
}

/** A taxi's receipt on a small page: the ride, its fare with VAT, the payment. */
function taxi(r: Rng, lang: Lang): Omit<Expense, 'truth'> & { fields: Record<string, unknown> } {
  const m = merchant(r, lang, 'taxi')
  const cur = lang === 'en' ? 'GBP' : 'EUR'
  const mo = money(lang, cur, r)
  const rate = lang === 'fr' ? 10 : lang === 'de' ? 7 : 20
  const gross = round2(int(r, 1200, 12000) / 100)
  const net = round2(gross / (1 + rate / 100))
  const vat = round2(gross - net)
  const day: Ymd = { y: int(r, 2019, 2026), m: int(r, 1, 10), d: int(r, 1, 28) }
  const number = `${day.y}-${digits(r, 4)}`
  const T = {
    fr: [
      'REÇU DE COURSE',
      'Date',
      'Départ',
      'Arrivée',
      'Montant HT',
      `TVA ${rate} %`,
      'Total TTC',
      'Réglé par carte',
      'N°',
    ],
    en: [
      'TAXI RECEIPT',
      'Date',
      'Pick-up',
      'Drop-off',
      'Fare excl. VAT',
      `VAT ${rate}%`,
      'Total fare',
      'Paid by card',
      'Receipt no.',
    ],
    de: [
      'TAXIQUITTUNG',
      'Datum',
      'Start',
      'Ziel',
      'Fahrpreis netto',
      `MwSt. ${rate} %`,
      'Fahrpreis brutto',
      'Bezahlt mit Karte',
      'Quittung Nr.',
    ],
  }[lang]
  const place = () => `${pick(r, STREETS[lang])} (${pick(r, CITIES[lang])[1]})`
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>
  html, body { margin: 0; } body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 8.5pt; color: #222; padding: 22px 26px; width: 420px; box-sizing: border-box; }
  h1 { font-size: 12pt; margin: 0 0 2px; } .small { font-size: 7.5pt; color: #444; } .r { display: flex; justify-content: space-between; }
  .box { border: 1px solid #888; padding: 6px 8px; margin: 10px 0; } .t { font-weight: bold; } .title { margin-top: 10px; font-weight: bold; letter-spacing: 1px; }
  </style></head><body data-scan-ready><h1>${esc(m.name)}</h1><div>${esc(m.street)}, ${esc(m.city)}</div><div class="small">${esc(L.vatId[lang])} ${m.vat}${m.operator ? ` · ${esc(m.operator)}` : ''} · Lic. ${digits(r, 4)}</div>
  <div class="title r"><span>${T[0]}</span><span>${T[8]} ${number}</span></div>
  <div class="box">${row(`${T[1]}`, `${formatDate(r, lang, day, 0)}`)}${row(T[2]!, place())}${row(T[3]!, place())}${row('km', `${int(r, 20, 480) / 10}`)}</div>
  ${row(T[4]!, mo.fmt(net))}${row(T[5]!, mo.fmt(vat))}<div class="t">${row(T[6]!, mo.fmt(gross))}</div><div class="small" style="margin-top:8px">${T[7]}</div></body></html>`
  return {
    html,
    size: { width: 420, height: 0 },
    fields: truthFields(number, day, m, cur, { vat, net: net, gross: gross }),
  }
}

/** A hotel's folio on A4: the guest's block, the stay's dates, nights, a tourist tax, the balance. */
function hotel(r: Rng, lang: Lang): Omit<Expense, 'truth'> & { fields: Record<string, unknown> } {
  const m = merchant(r, lang, 'hotel')
  const cur = lang === 'en' ? 'GBP' : 'EUR'
  const mo = money(lang, cur, r)
  const rate = lang === 'fr' ? 10 : lang === 'de' ? 7 : 20
  const nights = int(r, 1, 4)
  const room = int(r, 79, 189)
  const tax = lang === 'en' ? 0 : round2(int(r, 60, 300) / 100)
  const arrival: Ymd = { y: int(r, 2019, 2026), m: int(r, 1, 10), d: int(r, 1, 20) }
  const departure: Ymd = { ...arrival, d: arrival.d + nights }
  const issue = departure
  const fmt = (t: Ymd) => formatDate(r, lang, t, lang === 'en' ? 0 : 0)
  const number = `${pick(r, ['F', 'RE', 'INV', ''])}${issue.y}${digits(r, 5)}`
  const gross = round2(nights * room)
  const net = round2(gross / (1 + rate / 100))
  const vat = round2(gross - net)
  const taxTotal = round2(tax * nights)
  const total = round2(gross + taxTotal)
  const T = {
    fr: [
      'FACTURE',
      'N° de facture',
      'Date',
      'Arrivée',
      'Départ',
      'Nuitée',
      'Taxe de séjour',
      'Total HT',
      `TVA ${rate} %`,
      'Total TTC',
      'Payé CB',
      'Solde',
      'Client',
    ],
    en: [
      'INVOICE',
      'Invoice no.',
      'Date',
      'Arrival',
      'Departure',
      'Room night',
      'City tax',
      'Total excl. VAT',
      `VAT ${rate}%`,
      'Total',
      'Paid by card',
      'Balance',
      'Guest',
    ],
    de: [
      'RECHNUNG',
      'Rechnungs-Nr.',
      'Datum',
      'Anreise',
      'Abreise',
      'Übernachtung',
      'Kurtaxe',
      'Summe netto',
      `MwSt. ${rate} %`,
      'Gesamtbetrag',
      'Bezahlt mit Karte',
      'Saldo',
      'Gast',
    ],
  }[lang]
  const guest = `${pick(r, FIRST)} ${pick(r, LAST)}`
  const guestCo = `${pick(r, LAST)} ${pick(r, ['Consulting', 'Partners', 'Logistik', 'Conseil'])} ${pick(r, LEGAL_FORMS[lang])}`
  const [gpc, gtown] = pick(r, CITIES[lang])
  const nightRows = Array.from({ length: nights }, (_, k) => {
    const d = { ...arrival, d: arrival.d + k }
    return `<tr><td>${fmt(d)}</td><td>${T[5]}</td><td class="n">${mo.fmt(room)}</td></tr>${tax ? `<tr><td>${fmt(d)}</td><td>${T[6]}</td><td class="n">${mo.fmt(tax)}</td></tr>` : ''}`
  }).join('')
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>
  @page { size: A4; margin: 16mm; } body { font-family: 'DejaVu Serif', Georgia, serif; font-size: 9.5pt; color: #222; }
  .brand { font-size: 18pt; text-align: center; letter-spacing: 1px; } .c { text-align: center; } .small { font-size: 8pt; color: #555; }
  .row { display: flex; justify-content: space-between; margin: 18pt 0; } .n { text-align: right; } table { border-collapse: collapse; }
  .lines { width: 100%; margin-top: 10pt; } .lines td { padding: 2pt 4pt; border-bottom: 0.5pt solid #ccc; } .sum { margin-left: auto; margin-top: 10pt; } .sum td { padding: 1pt 6pt; } .b { font-weight: bold; }
  .footer { position: fixed; bottom: 0; left: 0; right: 0; text-align: center; font-size: 7pt; color: #555; }
  </style></head><body><div class="brand">${esc(m.name)}</div><div class="c">${esc(m.street)} · ${esc(m.city)}</div><div class="c small">Tel. +${digits(r, 2)} ${digits(r, 3)} ${digits(r, 3)} ${digits(r, 3)} · ${esc(L.vatId[lang])} ${m.vat}</div>
  <div class="row"><div><div class="b">${T[0]}</div><div>${T[1]}: ${number}</div><div>${T[2]}: ${fmt(issue)}</div><div>${T[3]}: ${fmt(arrival)} · ${T[4]}: ${fmt(departure)}</div></div>
  <div><div class="small">${T[12]}</div><div>${esc(guest)}</div><div>${esc(guestCo)}</div><div>${int(r, 1, 99)} ${esc(pick(r, STREETS[lang]))}</div><div>${gpc} ${esc(gtown)}</div></div></div>
  <table class="lines">${nightRows}</table>
  <table class="sum"><tr><td>${T[7]}</td><td class="n">${mo.fmt(net)}</td></tr><tr><td>${T[8]}</td><td class="n">${mo.fmt(vat)}</td></tr>${taxTotal ? `<tr><td>${T[6]}</td><td class="n">${mo.fmt(taxTotal)}</td></tr>` : ''}<tr class="b"><td>${T[9]}</td><td class="n">${mo.fmt(total)}</td></tr><tr><td>${T[10]}</td><td class="n">-${mo.fmt(total)}</td></tr><tr><td>${T[11]}</td><td class="n">${mo.fmt(0)}</td></tr></table>
  <div class="footer">${esc(m.operator ?? m.name)} · ${esc(m.address)}</div></body></html>`
  return {
    html,
    size: 'A4',
    fields: truthFields(number, issue, m, cur, { vat, net: round2(net + taxTotal), gross: total }),
  }
}

export function makeExpense(seed: number, i: number): Expense {
  const r = rngOf(seed * 1000 + i + 0xe7)
  const lang = pick(r, ['fr', 'en', 'de'] as const)
  const kind = pick(r, EXPENSE_KINDS)
  const doc = kind === 'taxi' ? taxi(r, lang) : kind === 'hotel' ? hotel(r, lang) : ticket(r, lang, kind)
  return {
    html: doc.html,
    size: doc.size,
    truth: {
      file: `${String(i + 1).padStart(4, '0')}-${lang}-${kind}.pdf`,
      kind: 'expense',
      template: kind,
      variant: 'clean',
      render: 'pdf_text',
      pages: 1,
      upload_order: i + 1,
      fields: doc.fields,
      expected_status: 'COMPLETED',
      expected_error_codes: [],
      expected_warning_codes: [],
    },
  }
}

/** Writes `count` expenses of the seed (`scans`: the share written as scanned copies). */
export async function generateExpenses(seed: number, dir: string, count: number, scans = 0): Promise<void> {
  await writeDocuments(
    dir,
    count,
    seed,
    scans,
    (i) => makeExpense(seed, i),
    async (page, { html, size }) => {
      if (size === 'A4') {
        await page.setContent(html)
        return { pdf: await page.pdf({ format: 'A4' }), size: { width: 794, height: 1123 } }
      }
      // A till roll as long as what it prints.
      await page.setViewportSize({ width: size.width, height: 600 })
      await page.setContent(html)
      const height = Number(await page.evaluate('document.body.scrollHeight'))
      const pdf = await page.pdf({ width: `${size.width}px`, height: `${height + 2}px`, pageRanges: '1' })
      return { pdf, size: { width: size.width, height } }
    },
  )
}

if (import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2)
  const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1]! : d)
  await generateExpenses(
    Number(opt('--seed', '5150')),
    opt('--out', '/tmp/novel-expenses'),
    Number(opt('--count', '60')),
    Number(opt('--scans', '0')),
  )
}
