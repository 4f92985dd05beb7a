/**
 * The patient app's response headers: a Content-Security-Policy that lets the page load scripts,
 * styles and images from the service alone and talk to the service and the authorization server's
 * token endpoint alone, and no referrer (the address holds the authorization code on the way back).
 */
export function contentSecurityPolicy(issuer: string): string {
  const issuerOrigin = new URL(issuer).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    `connect-src 'self' ${issuerOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function appHeaders(issuer: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(issuer),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}
