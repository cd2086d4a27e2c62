/**
 * Starts Swagger UI on /docs from the API's own document. A file, not an inline script (the page's
 * policy forbids those). The base layout has no address bar: the page shows our document only.
 */
export const DOCS_JS = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#api-reference',
    layout: 'BaseLayout',
    presets: [window.SwaggerUIBundle.presets.apis],
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    supportedSubmitMethods: ['get', 'post', 'delete']
  });
});
`;
