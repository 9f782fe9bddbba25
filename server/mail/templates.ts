/**
 * The account mails, in the recipient's language, as plain text and HTML. Every value put
 * into the HTML is escaped: names come from an administrator's input.
 */
import type { Language } from '../../contract/index.ts'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

interface MailInput {
  name: string
  link: string
}

interface Copy {
  subject: string
  greeting: (name: string) => string
  body: string
  action: string
  expiry: string
  ignore: string
}

const INVITATION: Record<Language, Copy> = {
  en: {
    subject: 'Activate your DocFlow account',
    greeting: (name) => `Hello ${name},`,
    body: 'An account has been created for you on DocFlow. Open the link below to choose your password and activate it.',
    action: 'Activate my account',
    expiry: 'This link can be used once and expires in 72 hours.',
    ignore: 'If you were not expecting this invitation, you can ignore this message.',
  },
  fr: {
    subject: 'Activez votre compte DocFlow',
    greeting: (name) => `Bonjour ${name},`,
    body: 'Un compte a été créé pour vous sur DocFlow. Ouvrez le lien ci-dessous pour choisir votre mot de passe et l’activer.',
    action: 'Activer mon compte',
    expiry: 'Ce lien ne peut servir qu’une fois et expire dans 72 heures.',
    ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer ce message.',
  },
}

const RESET: Record<Language, Copy> = {
  en: {
    subject: 'Reset your DocFlow password',
    greeting: (name) => `Hello ${name},`,
    body: 'We received a request to reset the password of your DocFlow account. Open the link below to choose a new one.',
    action: 'Choose a new password',
    expiry: 'This link can be used once and expires in 1 hour.',
    ignore: 'If you did not ask for this, ignore this message: your password stays unchanged.',
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe DocFlow',
    greeting: (name) => `Bonjour ${name},`,
    body: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte DocFlow. Ouvrez le lien ci-dessous pour en choisir un nouveau.',
    action: 'Choisir un nouveau mot de passe',
    expiry: 'Ce lien ne peut servir qu’une fois et expire dans 1 heure.',
    ignore:
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
  },
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

function render(copy: Copy, language: Language, { name, link }: MailInput): RenderedMail {
  const text = [
    copy.greeting(name),
    '',
    copy.body,
    '',
    link,
    '',
    copy.expiry,
    copy.ignore,
    '',
    'DocFlow',
  ].join('\n')
  const html = `<!doctype html>
<html lang="${language}">
<body style="font-family: sans-serif; color: #1f2933; line-height: 1.5">
<p>${escapeHtml(copy.greeting(name))}</p>
<p>${escapeHtml(copy.body)}</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(copy.action)}</a></p>
<p style="font-size: 13px; word-break: break-all">${escapeHtml(link)}</p>
<p style="font-size: 13px; color: #52606d">${escapeHtml(copy.expiry)}<br>${escapeHtml(copy.ignore)}</p>
<p>DocFlow</p>
</body>
</html>
`
  return { subject: copy.subject, text, html }
}

export function invitationMail(language: Language, input: MailInput): RenderedMail {
  return render(INVITATION[language], language, input)
}

export function resetMail(language: Language, input: MailInput): RenderedMail {
  return render(RESET[language], language, input)
}
