/**
 * A URL as a log line or a message may show it: no user name or password, no query (PostgreSQL takes
 * `?password=`, and a token may travel there too), no fragment. A setting that is no URL at all (a
 * libpq `host=… password=…` string) is not shown.
 */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return '(not shown: not a URL)';
  }
}

/** `message` with every occurrence of the URL's password replaced, for a driver's words that might echo it. */
export function withoutPassword(message: string, raw: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(raw).password);
  } catch {
    return message;
  }
  return password === '' ? message : message.split(password).join('***');
}
