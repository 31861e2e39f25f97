import http from 'node:http';

/**
 * A response whose status line always carries the standard reason phrase of its status
 * (`404 Not Found`, not `404 OK`). Astro copies a page's `statusText` — "OK" unless the page set
 * one — to the status line even when the page changed the status to 404 or 500, and clients and
 * logs that read the phrase would report nonsense.
 */
export class StandardReasonResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as http.OutgoingHttpHeaders | http.OutgoingHttpHeader[] | undefined;
    this.statusMessage = http.STATUS_CODES[statusCode] ?? 'unknown';
    return super.writeHead(statusCode, headers);
  }
}
