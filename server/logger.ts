import pino, { type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.ts'

/** JSON lines to stdout. Secrets are redacted in case a future log call passes a whole object. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: {
      paths: [
        'password',
        '*.password',
        'passwordHash',
        '*.passwordHash',
        'headers.cookie',
        '*.headers.cookie',
      ],
      censor: '[redacted]',
    },
  }
  return destination ? pino(options, destination) : pino(options)
}
