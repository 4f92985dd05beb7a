import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface IssuedCertificate {
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
}

const openssl = (args: string[]): void => {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
};

/**
 * A throw-away certificate authority made with `openssl` in a test's temporary folder: P-256 keys,
 * valid two days, server certificates for 127.0.0.1 and localhost, client certificates for mutual
 * TLS. Nothing here is ever committed; every run makes its own.
 */
export class TestPki {
  readonly caFile: string;
  private readonly caKeyFile: string;

  constructor(private readonly dir: string, readonly name = 'test-ca') {
    this.caFile = path.join(dir, `${name}.crt`);
    this.caKeyFile = path.join(dir, `${name}.key`);
    openssl([
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', this.caKeyFile,
      '-out', this.caFile, '-days', '2', '-subj', `/CN=${name}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ]);
  }

  get ca(): Buffer {
    return readFileSync(this.caFile);
  }

  /** A server certificate for 127.0.0.1 and localhost. */
  server(name: string): IssuedCertificate {
    return this.issue(name, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  }

  /** A client certificate, as a gateway or this service presents in mutual TLS. */
  client(name: string): IssuedCertificate {
    return this.issue(name, 'extendedKeyUsage=clientAuth\n');
  }

  private issue(name: string, extensions: string): IssuedCertificate {
    const base = path.join(this.dir, name);
    const ext = `${base}.ext`;
    writeFileSync(ext, `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n${extensions}`);
    openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${name}`]);
    openssl([
      'x509', '-req', '-in', `${base}.csr`, '-CA', this.caFile, '-CAkey', this.caKeyFile, '-set_serial', `0x${randomBytes(8).toString('hex')}`,
      '-days', '2', '-extfile', ext, '-out', `${base}.crt`,
    ]);
    return { certFile: `${base}.crt`, keyFile: `${base}.key`, cert: readFileSync(`${base}.crt`), key: readFileSync(`${base}.key`) };
  }
}
