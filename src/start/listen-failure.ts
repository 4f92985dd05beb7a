import { ConfigError } from './config.js';

/** The settings of one listener, as a person sets them. */
export interface ListenSettings {
  portSetting: string;
  port: number;
  hostSetting: string;
  host: string;
}

/**
 * A listener that cannot open, as the one line a person starting the service can act on (naming
 * the setting and what to set it to), instead of a socket error with a stack. Errors of another
 * kind pass through unchanged.
 */
export function listenFailure(err: unknown, s: ListenSettings): unknown {
  switch ((err as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE':
      return new ConfigError(`${s.portSetting} ${s.port} is in use on ${s.host}: set ${s.portSetting} to a free port `
        + `(${s.portSetting}=0 lets the system pick one) or stop what holds it`);
    case 'EACCES':
      return new ConfigError(`${s.portSetting} ${s.port} needs privileges this process lacks: set ${s.portSetting} to a port from 1024 up`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError(`${s.hostSetting} ${s.host} is not a name this machine resolves: set ${s.hostSetting} to one of its addresses (127.0.0.1 by default)`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`${s.hostSetting} ${s.host} is not an address of this machine: set ${s.hostSetting} to one of its addresses (127.0.0.1 by default)`);
    default:
      return err;
  }
}

/** Runs `open`, turning a listener that cannot open into that one line. */
export async function opened<T>(open: () => Promise<T>, settings: ListenSettings): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw listenFailure(err, settings);
  }
}
