// Starts Swagger UI on the served OpenAPI document. An external file, not an inline script, so the
// page's Content-Security-Policy needs no 'unsafe-inline'. The document's address comes from the page.
'use strict'
const root = document.getElementById('swagger-ui')

// Every API answer is first a 307 to its live read (po_live=1). The browser follows it, but the curl
// command Swagger UI shows is built from this request: without po_live=1, pasted into a terminal, it
// prints only the redirect's body. The parameter is added where the person left it empty.
function liveRead(request) {
  const url = new URL(request.url, window.location.href)
  if (url.pathname.includes('/api/v1/') && !url.searchParams.has('po_live')) {
    url.searchParams.set('po_live', '1')
    request.url = url.href
  }
  return request
}
window.ui = window.SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  // No validator badge: it would send the document to validator.swagger.io.
  validatorUrl: null,
  // Deep links are anchors inside each operation's toggle button: a control inside a control,
  // which screen readers and keyboards handle badly (axe: nested-interactive).
  deepLinking: false,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  supportedSubmitMethods: ['get', 'head'],
  requestInterceptor: liveRead,
  // A light theme whose colours keep a 4.5:1 contrast.
  syntaxHighlight: { activated: true, theme: 'idea' },
})

// Swagger UI leaves a few controls without a name and scrolling code blocks out of the keyboard's
// reach (axe: select-name, scrollable-region-focusable). Fixed as it renders, until it does so itself.
function repair(scope) {
  for (const select of scope.querySelectorAll('select:not([aria-label])')) {
    const parameter = select.closest('[data-param-name]')
    const label =
      select.id === 'servers' ? 'Servers' : parameter ? `Value of ${parameter.dataset.paramName}` : 'Choice'
    select.setAttribute('aria-label', label)
  }
  for (const block of scope.querySelectorAll('pre:not([tabindex])')) {
    block.tabIndex = 0
  }
  // The page has its own <main>; Swagger UI's second one becomes a named region (axe: landmark-no-duplicate-main).
  for (const landmark of scope.querySelectorAll('main:not([role])')) {
    landmark.setAttribute('role', 'region')
    landmark.setAttribute('aria-label', 'Operations')
  }
}
new MutationObserver(() => repair(root)).observe(root, { childList: true, subtree: true })
