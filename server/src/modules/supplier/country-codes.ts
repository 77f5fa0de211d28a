/**
 * Country names as shoppers type them ("USA", "United Kingdom", "Deutschland"...) to the ISO 3166
 * two-letter codes CJ expects in shippingCountryCode. Built from the runtime's own region names.
 */
const ALIASES: Record<string, string> = {
  usa: 'US', 'u.s.a.': 'US', 'u.s.': 'US', america: 'US', 'united states of america': 'US',
  uk: 'GB', 'u.k.': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'great britain': 'GB', britain: 'GB',
  deutschland: 'DE', holland: 'NL', 'the netherlands': 'NL', espana: 'ES', 'españa': 'ES', italia: 'IT',
  'south korea': 'KR', korea: 'KR', russia: 'RU', 'czech republic': 'CZ', uae: 'AE', turkey: 'TR',
};

// Region codes that are not countries one can ship to, and withdrawn codes the runtime still names
// (DD "Germany", FX "France"...): without them a name resolves to the country's current code.
const NOT_COUNTRIES = new Set([
  'EU', 'EZ', 'UN', 'QO', 'AQ',
  'AN', 'BU', 'CS', 'DD', 'DY', 'FX', 'HV', 'NH', 'RH', 'SU', 'TP', 'UK', 'VD', 'YD', 'YU', 'ZR',
]);

let byName: Map<string, { code: string; name: string }> | null = null;

function table(): Map<string, { code: string; name: string }> {
  if (byName) return byName;
  byName = new Map();
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (!name || name === code || /unknown/i.test(name) || NOT_COUNTRIES.has(code)) continue;
      byName.set(code.toLowerCase(), { code, name });
      byName.set(name.toLowerCase(), { code, name });
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) {
    const entry = byName.get(code.toLowerCase());
    if (entry) byName.set(alias, entry);
  }
  return byName;
}

/** The two-letter code and English name of a country as typed, or null when it is not recognised. */
export function resolveCountry(input: string): { code: string; name: string } | null {
  const key = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!key) return null;
  return table().get(key) ?? null;
}
