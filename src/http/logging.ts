import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

const IDENTITY_NUMBER = /\b(?:19|20)\d{6}-?\d{4}\b/g;

/** Path without the query string: queries may carry anything a caller typed, tokens included. */
const pathOf = (url: string | undefined): string => (url ?? '').split('?')[0]?.replace(IDENTITY_NUMBER, '[REDACTED]') ?? '';

/**
 * pino for the service: request lines carry method, path, request id and status only; headers that
 * hold credentials or a patient's identity are redacted wherever they might be logged.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["ocp-apim-subscription-key"]', 'req.headers.patient',
        'headers.authorization', 'headers["ocp-apim-subscription-key"]', 'headers.patient',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, path: pathOf(req.url), remoteAddress: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level));
}
