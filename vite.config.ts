import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The renderer is built once and loaded two ways: from app://shipdesk/ inside Electron and from
 * http://127.0.0.1:<port>/ in browser mode; a relative base serves both.
 */
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), relaxCspForDevServer()],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/app': { target: 'http://127.0.0.1:4318', changeOrigin: false },
    },
  },
});

/**
 * index.html carries the production CSP. The dev server's React Refresh preamble is an inline
 * script, so only under `vite` (never in the build) the policy admits inline scripts.
 */
function relaxCspForDevServer(): Plugin {
  return {
    name: 'shipdesk-dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    },
  };
}
