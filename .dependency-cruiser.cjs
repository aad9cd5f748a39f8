/**
 * Perch's layer rules, checked by `npm run lint` (depcruise apps packages bench).
 *
 * Server: a request flows route → use case → repository; a module reads another module's data
 * through its service, never its repository; platform/ and lib/ serve everyone and know no feature;
 * app/ composes the rest and nothing below imports it. Web: app → features → entities → shared,
 * each feature reached by another only through its index. Tests may import anything, but take part
 * in the cycle check.
 */

/** Tests and their helpers: exempt from the layer rules. */
const TESTS = '(\\.test\\.tsx?$|^apps/[^/]+/test/|^apps/web/src/test/|^apps/web/e2e/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle makes two files one unit: neither can be understood, tested or moved alone. Type-only imports are left out: they are gone at run time.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'module-repository-is-private',
      severity: 'error',
      comment:
        "A module reads another module's data through that module's service, never its repository.",
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/server/src/modules/[^/]+/[^/]*\\.repository\\.ts$',
        pathNot: '^apps/server/src/modules/$1/',
      },
    },
    {
      name: 'platform-and-lib-know-no-feature',
      severity: 'error',
      comment:
        'platform/ (database, events, infrastructure) and lib/ serve every module; they import no module, no read model and not the app.',
      from: { path: '^apps/server/src/(platform|lib)/', pathNot: TESTS },
      to: { path: '^apps/server/src/(modules|read-model|app|mastodon|federation)/' },
    },
    {
      name: 'protocol-adapters-use-services',
      severity: 'error',
      comment:
        "The Mastodon API and federation map their protocols onto the modules' services and presenters; they never reach a module's repository, so every rule stays in one place.",
      from: { path: '^apps/server/src/(mastodon|federation)/', pathNot: TESTS },
      to: { path: '^apps/server/src/modules/[^/]+/[^/]*\\.repository\\.ts$' },
    },
    {
      name: 'modules-know-no-protocol-adapter',
      severity: 'error',
      comment:
        'The adapters sit on top of the modules: a module that imported one would depend on a protocol.',
      from: { path: '^apps/server/src/(modules|read-model)/', pathNot: TESTS },
      to: { path: '^apps/server/src/(mastodon|federation)/' },
    },
    {
      name: 'modules-do-not-import-app',
      severity: 'error',
      comment: 'app/ composes the modules; a module that imports it depends on the whole server.',
      from: { path: '^apps/server/src/modules/', pathNot: TESTS },
      to: { path: '^apps/server/src/app/' },
    },
    {
      name: 'contract-imports-no-app',
      severity: 'error',
      comment: 'The contract is shared by the server and the web app, and depends on neither.',
      from: { path: '^packages/contract/' },
      to: { path: '^apps/' },
    },
    {
      name: 'bench-uses-the-server-through-buildApp',
      severity: 'error',
      comment:
        "The benchmark runs the server as a client would: through buildApp (app/app.ts) and the configuration it takes (app/config.ts); the data generator writes through the server's database layer (platform/db) with its password hash (lib/password.ts).",
      from: { path: '^bench/', pathNot: TESTS },
      to: {
        path: '^apps/server/src/',
        pathNot: '^apps/server/src/(app/app\\.ts|app/config\\.ts|platform/db/|lib/password\\.ts)',
      },
    },
    {
      name: 'web-features-meet-through-their-index',
      severity: 'error',
      comment: "A feature uses another feature only through that feature's index.",
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/web/src/features/',
        pathNot: '^apps/web/src/features/($1/|[^/]+/index\\.tsx?$)',
      },
    },
    {
      name: 'web-entities-know-no-feature',
      severity: 'error',
      comment:
        'Entities (post, member, comment…) are what features are built from, not the other way.',
      from: { path: '^apps/web/src/entities/', pathNot: TESTS },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'web-shared-knows-no-entity-or-feature',
      severity: 'error',
      comment: 'shared/ holds what any part of the web app may use, so it uses none of them.',
      from: { path: '^apps/web/src/shared/', pathNot: TESTS },
      to: { path: '^apps/web/src/(entities|features)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage|test-results|bench-data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
