/**
 * The security headers of every answer: a Content-Security-Policy that allows only this origin's
 * scripts (and the hashed inline scripts of the built index.html), no framing, no sniffing, and
 * HSTS when the public address is https.
 */
import { secureHeaders } from 'hono/secure-headers'
import type { Config } from '../config.ts'
import { indexScriptSources } from './inline-scripts.ts'

export function securityHeaders(config: Config) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [indexScriptSources(config.staticDir)],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    // HSTS only means something (and is only honoured) over https.
    strictTransportSecurity: config.publicUrl.startsWith('https:')
      ? 'max-age=15552000; includeSubDomains'
      : false,
  })
}
