/** The service's icon, a Rupiah mark: inlined in page heads, and served at /favicon.ico for every other page. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#16324f"/>' +
  '<text x="16" y="21.5" font-family="system-ui,sans-serif" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">Rp</text></svg>'
export const ICON_HREF = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`
