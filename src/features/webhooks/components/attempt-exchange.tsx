import { m } from '#/paraglide/messages'

export interface AttemptExchange {
  status: number | null
  responseExcerpt: string
  requestUrl: string | null
  requestHeaders: Record<string, string> | null
  requestBody: string | null
  responseHeaders: Record<string, string> | null
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')

function Exchange({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <details className="group/exchange">
      <summary className="cursor-pointer text-xs font-medium text-muted-foreground hover:text-foreground">
        {label}
      </summary>
      <pre
        className="mt-1 max-h-64 overflow-auto rounded bg-muted/50 p-2 font-mono text-xs break-all whitespace-pre-wrap"
        data-testid={testId}
      >
        {text}
      </pre>
    </details>
  )
}

/**
 * One attempt's request and answer as they went over the wire, folded: what a receiver's author needs to reproduce
 * a failed verification (the exact signed body and the three signature headers) and to see what their server said.
 * Attempts logged before requests were kept show only the answer's first bytes.
 */
export function AttemptExchangeView({ attempt }: { attempt: AttemptExchange }) {
  const request =
    attempt.requestUrl && attempt.requestHeaders
      ? `POST ${attempt.requestUrl}\n${headerLines(attempt.requestHeaders)}\n\n${attempt.requestBody ?? ''}`
      : null
  const answered = attempt.status !== null || attempt.responseExcerpt !== ''
  const response = answered
    ? [
        attempt.status === null ? '' : `HTTP ${attempt.status}`,
        attempt.responseHeaders ? headerLines(attempt.responseHeaders) : '',
      ]
        .filter(Boolean)
        .join('\n') + (attempt.responseExcerpt ? `\n\n${attempt.responseExcerpt}` : '')
    : null
  if (!request && !response) return null
  return (
    <div className="mt-2 grid grid-cols-[minmax(0,1fr)] gap-1">
      {request ? <Exchange label={m.webhooks_attempt_request()} text={request} testId="attempt-request" /> : null}
      {response ? <Exchange label={m.webhooks_attempt_response()} text={response} testId="attempt-response" /> : null}
    </div>
  )
}
