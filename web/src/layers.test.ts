import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The web layers (docs/ARCHITECTURE.md, "Web layers") as the repository's ESLint config enforces them:
 * each case lints a few lines as if they were a file at that place in web/src (the file does not
 * exist: nothing is written, the normal lint run never sees these lines); the imports name real files.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, 'web/src', file) });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const layerError = (importPath: string, message: string) => ({
  rule: 'import/no-restricted-paths',
  message: `Unexpected path "${importPath}" imported in restricted zone. ${message}`,
});
const COMPOSED = 'app/, main.tsx and entry-server.tsx compose the features; a feature never imports them (move what it needs into lib/ or components/).';
const THROUGH_INDEX = "A feature uses another only through that feature's index.ts (export what is needed there).";
const SHARED = 'Shared code (components/, lib/, ssr/, test/) sits below the features and app/: it imports neither (move what it needs down).';

describe('web layers (ESLint import/no-restricted-paths)', () => {
  it('refuses an import from app/ in a feature', async () => {
    expect(await lint('features/cart/layers-fixture.ts', "import { routes } from '../../app/router';\n\nexport const all = routes;\n")).toEqual([
      layerError('../../app/router', COMPOSED),
    ]);
    expect(await lint('features/orders/pages/LayersFixture.tsx', "import { page } from '../../../app/page-element';\n\nexport const wrap = page;\n")).toEqual([
      layerError('../../../app/page-element', COMPOSED),
    ]);
  });

  it('refuses an import from the entries in a feature', async () => {
    expect(await lint('features/auth/layers-fixture.ts', "import '../../entry-server';\n")).toEqual([layerError('../../entry-server', COMPOSED)]);
  });

  it("refuses a feature's inner file in another feature, and takes its index.ts", async () => {
    expect(await lint('features/orders/layers-fixture.ts', "import { useCart } from '../cart/api/get-cart';\n\nexport const cart = useCart;\n")).toEqual([
      layerError('../cart/api/get-cart', THROUGH_INDEX),
    ]);
    expect(await lint('features/orders/layers-fixture.ts', "import { useCart } from '../cart';\n\nexport const cart = useCart;\n")).toEqual([]);
  });

  it('refuses features and app/ in the shared layer', async () => {
    expect(await lint('lib/layers-fixture.ts', "import { useCart } from '../features/cart';\n\nexport const cart = useCart;\n")).toEqual([
      layerError('../features/cart', SHARED),
    ]);
    expect(await lint('components/LayersFixture.tsx', "import { page } from '../app/page-element';\n\nexport const wrap = page;\n")).toEqual([
      layerError('../app/page-element', SHARED),
    ]);
  });

  it('takes imports that point down: a feature from its own files and the shared layer, app/ from any feature file', async () => {
    const feature = [
      "import { paths } from '../../../lib/paths';",
      "import { useStore } from '../../../lib/store';",
      "import { PageTitle } from '../../../components/PageTitle';",
      "import { useCart } from '../api/get-cart';",
      '',
      'export const parts = [paths, useStore, PageTitle, useCart];',
      '',
    ].join('\n');
    expect(await lint('features/cart/pages/LayersFixture.tsx', feature)).toEqual([]);
    expect(await lint('app/layers-fixture.ts', "import { useCart } from '../features/cart/api/get-cart';\n\nexport const cart = useCart;\n")).toEqual([]);
  });
});
