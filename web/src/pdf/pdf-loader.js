// The one way the page loads the PDF reader (pdf-text.js, a bundle of its own: docs/pdf.md). By URL, so
// esbuild leaves it out of app.js and every caller gets the same module (one PdfError class, one pdf.js).
// `import.meta.url` is app.js's own address once bundled, and pdf-text.js sits beside it in dist/.

/** The PDF reader module, loaded on first use. */
export const loadPdfReader = () => import(new URL("pdf-text.js", import.meta.url).href);
