/** Every country the runtime names, as { code, name }, by name (the server accepts the same codes). */
let cached: Array<{ code: string; name: string }> | null = null;
// Not countries, and withdrawn codes the runtime still names (DD "Germany", FX "France"...): the server refuses them too.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'AQ', 'AN', 'BU', 'CS', 'DD', 'DY', 'FX', 'HV', 'NH', 'RH', 'SU', 'TP', 'UK', 'VD', 'YD', 'YU', 'ZR']);

export function countryOptions(): Array<{ code: string; name: string }> {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out: Array<{ code: string; name: string }> = [];
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        name = undefined;
      }
      if (!name || name === code || /unknown/i.test(name) || NOT_COUNTRIES.has(code)) continue;
      out.push({ code, name });
    }
  }
  cached = out.sort((x, y) => x.name.localeCompare(y.name, 'en'));
  return cached;
}
