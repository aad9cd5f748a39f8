import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { chunkNamer } from './scripts/chunkPlan';

const apiPort = process.env.PORT ?? '3000';

/**
 * The built app runs on Preact through preact/compat: the same components, a tenth of React's
 * bytes, so the login page's script stays within its 60 kB (brotli). The development server keeps
 * React for Fast Refresh and its warnings; the unit tests render with React too, the browser
 * tests (e2e/) run the build.
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

export default defineConfig(({ command }) => ({
  resolve: { alias: command === 'build' ? preactCompat : [] },
  plugins: [
    react(),
    VitePWA({
      // A new version waits until the member chooses to reload (features/pwa): never a silent swap
      // in the middle of writing a post.
      registerType: 'prompt',
      // Registered by the app itself after the first render (src/main.tsx), not by a script tag.
      injectRegister: false,
      includeAssets: ['favicon.svg', 'favicon.ico', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Perch',
        short_name: 'Perch',
        description: 'Share short posts and follow the people you care about.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f5f6fb',
        theme_color: '#4f46e5',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      // A service worker of our own (src/sw.ts): Workbox's precache, offline shell and media cache,
      // plus Background Sync for the outbox.
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectManifest: {
        // A classic script: Chromium and Safari run it without module worker support.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      },
    }),
  ],
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Emit every asset as its own file so nothing depends on data: URLs.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: chunkNamer(fileURLToPath(new URL('src', import.meta.url)), {
                entry: 'main.tsx',
                schemas: 'shared/lib/responseSchemas.ts',
                signedOut: [
                  'features/auth/LoginPage.tsx',
                  'features/auth/SignupPage.tsx',
                  'features/notFound/NotFoundPage.tsx',
                ],
                signedIn: [
                  'features/layout/AppLayout.tsx',
                  'features/home/HomePage.tsx',
                  'features/posts/PostPage.tsx',
                  'features/profile/ProfilePage.tsx',
                  'features/explore/ExplorePage.tsx',
                  'features/notifications/NotificationsPage.tsx',
                  'features/search/SearchPage.tsx',
                  'features/bookmarks/BookmarksPage.tsx',
                  'features/likedPosts/LikedPostsPage.tsx',
                  'features/tags/TagPage.tsx',
                ],
              }),
              // Only the modules named here: their dependencies stay where the plan puts them.
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
}));
