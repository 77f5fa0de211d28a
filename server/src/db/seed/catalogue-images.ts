import { loadSharp } from '../../lib/sharp.ts';
import type { ShapeKind } from './catalogue-data.ts';

/** Demo product images: drawn as SVG, rendered and encoded locally with sharp (no network). */
export const IMAGE_SIZE = 600;

const W = '#ffffff';

/** A simple, recognisable drawing of each kind of product, about 300 px wide around (300, 260). */
function shape(kind: ShapeKind, a: string): string {
  switch (kind) {
    case 'headphones':
      return `<path d="M185 300 V265 a115 115 0 0 1 230 0 V300" fill="none" stroke="${W}" stroke-width="24" stroke-linecap="round"/>
        <rect x="150" y="270" width="76" height="130" rx="32" fill="${W}"/><rect x="374" y="270" width="76" height="130" rx="32" fill="${W}"/>
        <rect x="172" y="292" width="32" height="86" rx="14" fill="${a}" fill-opacity=".35"/><rect x="396" y="292" width="32" height="86" rx="14" fill="${a}" fill-opacity=".35"/>`;
    case 'speaker':
      return `<rect x="205" y="120" width="190" height="290" rx="30" fill="${W}"/>
        <circle cx="300" cy="190" r="38" fill="${a}" fill-opacity=".35"/><circle cx="300" cy="190" r="14" fill="${a}" fill-opacity=".6"/>
        <circle cx="300" cy="315" r="68" fill="${a}" fill-opacity=".35"/><circle cx="300" cy="315" r="28" fill="${a}" fill-opacity=".6"/>`;
    case 'earbuds':
      return `<rect x="185" y="300" width="230" height="110" rx="50" fill="${W}" fill-opacity=".75"/>
        <circle cx="235" cy="200" r="52" fill="${W}"/><rect x="222" y="220" width="26" height="110" rx="13" fill="${W}"/>
        <circle cx="365" cy="200" r="52" fill="${W}"/><rect x="352" y="220" width="26" height="110" rx="13" fill="${W}"/>
        <circle cx="235" cy="200" r="22" fill="${a}" fill-opacity=".4"/><circle cx="365" cy="200" r="22" fill="${a}" fill-opacity=".4"/>`;
    case 'phone':
      return `<rect x="222" y="100" width="156" height="310" rx="28" fill="${W}"/>
        <rect x="236" y="130" width="128" height="250" rx="10" fill="${a}" fill-opacity=".45"/>
        <circle cx="300" cy="116" r="5" fill="${a}"/><rect x="270" y="390" width="60" height="8" rx="4" fill="${a}" fill-opacity=".5"/>`;
    case 'laptop':
      return `<rect x="170" y="130" width="260" height="180" rx="14" fill="${W}"/>
        <rect x="186" y="146" width="228" height="148" rx="6" fill="${a}" fill-opacity=".45"/>
        <path d="M140 320 H460 L490 356 H110 Z" fill="${W}"/><rect x="270" y="326" width="60" height="8" rx="4" fill="${a}" fill-opacity=".4"/>`;
    case 'camera':
      return `<rect x="250" y="150" width="90" height="40" rx="10" fill="${W}"/>
        <rect x="155" y="180" width="290" height="190" rx="28" fill="${W}"/>
        <circle cx="300" cy="275" r="72" fill="${a}" fill-opacity=".45"/><circle cx="300" cy="275" r="46" fill="${W}" fill-opacity=".7"/>
        <circle cx="300" cy="275" r="22" fill="${a}"/><circle cx="400" cy="210" r="10" fill="${a}" fill-opacity=".6"/>`;
    case 'watch':
      return `<rect x="262" y="100" width="76" height="320" rx="24" fill="${W}" fill-opacity=".7"/>
        <circle cx="300" cy="260" r="92" fill="${W}"/><circle cx="300" cy="260" r="72" fill="${a}" fill-opacity=".4"/>
        <path d="M300 260 V212 M300 260 L336 282" stroke="${W}" stroke-width="8" stroke-linecap="round"/>`;
    case 'mug':
      return `<path d="M370 215 h30 a45 45 0 0 1 0 90 h-30" fill="none" stroke="${W}" stroke-width="22"/>
        <rect x="190" y="180" width="190" height="220" rx="26" fill="${W}"/><rect x="190" y="250" width="190" height="34" fill="${a}" fill-opacity=".35"/>
        <path d="M240 160 q-12 -22 0 -44 M285 160 q-12 -22 0 -44 M330 160 q-12 -22 0 -44" fill="none" stroke="${W}" stroke-width="8" stroke-linecap="round" stroke-opacity=".7"/>`;
    case 'lamp':
      return `<path d="M225 130 H375 L425 250 H175 Z" fill="${W}"/><rect x="290" y="250" width="20" height="130" fill="${W}"/>
        <ellipse cx="300" cy="392" rx="95" ry="22" fill="${W}"/><ellipse cx="300" cy="262" rx="70" ry="10" fill="${a}" fill-opacity=".35"/>`;
    case 'kettle':
      return `<path d="M200 390 L215 200 Q300 160 385 200 L400 390 Z" fill="${W}"/><path d="M210 240 L140 180" stroke="${W}" stroke-width="22" stroke-linecap="round"/>
        <path d="M240 190 Q300 100 360 190" fill="none" stroke="${W}" stroke-width="18"/><rect x="215" y="300" width="170" height="26" fill="${a}" fill-opacity=".35"/>`;
    case 'shirt':
      return `<path d="M240 120 L170 150 L130 230 L190 255 L205 225 L205 410 H395 L395 225 L410 255 L470 230 L430 150 L360 120 Q300 165 240 120 Z" fill="${W}"/>
        <path d="M255 128 Q300 160 345 128" fill="none" stroke="${a}" stroke-opacity=".4" stroke-width="8"/>`;
    case 'bag':
      return `<path d="M240 215 V175 a60 60 0 0 1 120 0 V215" fill="none" stroke="${W}" stroke-width="18"/>
        <path d="M175 210 H425 L445 410 H155 Z" fill="${W}"/><rect x="270" y="250" width="60" height="18" rx="9" fill="${a}" fill-opacity=".45"/>`;
    case 'sunglasses':
      return `<path d="M130 225 H470" stroke="${W}" stroke-width="14" stroke-linecap="round"/>
        <ellipse cx="220" cy="275" rx="88" ry="70" fill="${W}"/><ellipse cx="380" cy="275" rx="88" ry="70" fill="${W}"/>
        <ellipse cx="220" cy="275" rx="70" ry="54" fill="${a}" fill-opacity=".55"/><ellipse cx="380" cy="275" rx="70" ry="54" fill="${a}" fill-opacity=".55"/>
        <path d="M290 262 Q300 250 310 262" fill="none" stroke="${W}" stroke-width="10"/>`;
    case 'shoe':
      return `<path d="M135 380 L140 300 Q150 240 200 235 L245 232 Q270 290 330 300 L430 320 Q475 335 470 380 Z" fill="${W}"/>
        <rect x="130" y="370" width="345" height="28" rx="12" fill="${a}" fill-opacity=".45"/>
        <path d="M225 262 L260 250 M235 284 L272 270 M248 304 L286 290" stroke="${a}" stroke-opacity=".5" stroke-width="7" stroke-linecap="round"/>`;
    case 'ball':
      return `<circle cx="300" cy="265" r="135" fill="${W}"/><path d="M300 215 L345 248 L328 300 H272 L255 248 Z" fill="${a}" fill-opacity=".55"/>
        <path d="M300 215 V140 M345 248 L420 222 M328 300 L372 365 M272 300 L228 365 M255 248 L180 222" stroke="${a}" stroke-opacity=".45" stroke-width="8"/>`;
    case 'bottle':
      return `<rect x="265" y="100" width="70" height="40" rx="8" fill="${W}" fill-opacity=".8"/><rect x="275" y="135" width="50" height="40" fill="${W}"/>
        <rect x="215" y="170" width="170" height="240" rx="40" fill="${W}"/><rect x="215" y="250" width="170" height="70" fill="${a}" fill-opacity=".35"/>`;
    case 'backpack':
      return `<path d="M255 150 V125 a45 45 0 0 1 90 0 V150" fill="none" stroke="${W}" stroke-width="16"/>
        <rect x="185" y="145" width="230" height="265" rx="60" fill="${W}"/><rect x="225" y="285" width="150" height="95" rx="22" fill="${a}" fill-opacity=".35"/>
        <rect x="240" y="300" width="120" height="10" rx="5" fill="${W}"/>`;
    case 'jar':
      return `<rect x="200" y="140" width="200" height="60" rx="14" fill="${W}" fill-opacity=".8"/>
        <rect x="185" y="195" width="230" height="210" rx="34" fill="${W}"/><rect x="185" y="260" width="230" height="70" fill="${a}" fill-opacity=".35"/>`;
    case 'cube':
      return `<path d="M300 120 L430 190 L300 260 L170 190 Z" fill="${W}"/><path d="M170 190 L300 260 V410 L170 340 Z" fill="${W}" fill-opacity=".75"/>
        <path d="M430 190 L300 260 V410 L430 340 Z" fill="${W}" fill-opacity=".55"/>
        <path d="M213 213 L343 143 M257 237 L387 167 M213 213 V363 M257 237 V387 M343 237 V387 M387 213 V363" stroke="${a}" stroke-opacity=".35" stroke-width="6"/>`;
    case 'bear':
      return `<circle cx="215" cy="150" r="42" fill="${W}"/><circle cx="385" cy="150" r="42" fill="${W}"/>
        <ellipse cx="300" cy="345" rx="120" ry="80" fill="${W}" fill-opacity=".85"/><circle cx="300" cy="220" r="110" fill="${W}"/>
        <ellipse cx="300" cy="255" rx="46" ry="34" fill="${a}" fill-opacity=".3"/><circle cx="262" cy="205" r="11" fill="${a}"/><circle cx="338" cy="205" r="11" fill="${a}"/>
        <circle cx="300" cy="245" r="12" fill="${a}"/>`;
    case 'book':
      return `<rect x="190" y="110" width="230" height="300" rx="10" fill="${W}"/><rect x="190" y="110" width="34" height="300" rx="8" fill="${a}" fill-opacity=".45"/>
        <rect x="250" y="170" width="140" height="18" rx="9" fill="${a}" fill-opacity=".5"/><rect x="250" y="204" width="100" height="12" rx="6" fill="${a}" fill-opacity=".35"/>`;
    case 'notebook':
      return `<rect x="195" y="110" width="220" height="300" rx="14" fill="${W}"/>
        ${[150, 195, 240, 285, 330, 375].map((y) => `<circle cx="195" cy="${y}" r="12" fill="${a}" fill-opacity=".55"/>`).join('')}
        ${[170, 210, 250, 290, 330].map((y) => `<rect x="235" y="${y}" width="150" height="6" rx="3" fill="${a}" fill-opacity=".3"/>`).join('')}`;
    case 'chair':
      return `<rect x="215" y="110" width="170" height="150" rx="30" fill="${W}"/><rect x="190" y="265" width="220" height="44" rx="20" fill="${W}"/>
        <path d="M300 310 V380 M300 380 L220 410 M300 380 L380 410 M300 380 V412" stroke="${W}" stroke-width="14" stroke-linecap="round"/>
        <rect x="240" y="135" width="120" height="100" rx="20" fill="${a}" fill-opacity=".3"/>`;
    case 'plant':
      return `<ellipse cx="245" cy="200" rx="40" ry="95" transform="rotate(-30 245 200)" fill="${W}" fill-opacity=".85"/>
        <ellipse cx="355" cy="200" rx="40" ry="95" transform="rotate(30 355 200)" fill="${W}" fill-opacity=".85"/>
        <ellipse cx="300" cy="170" rx="38" ry="100" fill="${W}"/><path d="M300 175 V290" stroke="${a}" stroke-opacity=".4" stroke-width="6"/>
        <path d="M210 290 H390 L365 410 H235 Z" fill="${W}"/><rect x="210" y="290" width="180" height="26" fill="${a}" fill-opacity=".35"/>`;
    case 'can':
      return `<path d="M330 210 Q300 130 250 210" fill="none" stroke="${W}" stroke-width="16"/>
        <rect x="190" y="210" width="200" height="190" rx="26" fill="${W}"/><path d="M380 290 L480 200" stroke="${W}" stroke-width="20" stroke-linecap="round"/>
        <circle cx="485" cy="195" r="18" fill="${W}"/><rect x="190" y="270" width="200" height="30" fill="${a}" fill-opacity=".3"/>`;
    default:
      return `<rect x="190" y="150" width="220" height="220" rx="30" fill="${W}"/>`;
  }
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Shortens a label so it fits the image width at the label's font size. */
function fit(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * One product image as SVG: a diagonal gradient in the category's colours with a soft glow, the
 * product's drawing, and (view 0) a name and brand label. View 1 mirrors and tilts the drawing on
 * the reversed gradient, view 2 is a close-up.
 */
export function productImageSvg(p: { name: string; brand: string; kind: ShapeKind }, palette: [string, string], view: number): string {
  const [from, to] = view === 1 ? [palette[1], palette[0]] : palette;
  const dir = view === 2 ? 'x1="0" y1="1" x2="1" y2="0"' : 'x1="0" y1="0" x2="1" y2="1"';
  const transform = view === 1 ? 'translate(600 0) scale(-1 1) rotate(-8 300 260)' : view === 2 ? 'translate(300 300) scale(1.45) translate(-300 -262)' : '';
  const label = view === 0
    ? `<rect y="470" width="600" height="130" fill="#000" fill-opacity=".22"/>
       <text x="300" y="527" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="${p.name.length > 24 ? 28 : 32}" fill="#fff" text-anchor="middle">${escapeXml(fit(p.name, 32))}</text>
       <text x="300" y="568" font-family="DejaVu Sans, Arial, sans-serif" font-size="22" fill="#fff" fill-opacity=".85" text-anchor="middle" letter-spacing="3">${escapeXml(p.brand.toUpperCase())}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}" viewBox="0 0 600 600">
    <defs><linearGradient id="g" ${dir}><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
    <radialGradient id="r"><stop offset="0" stop-color="#fff" stop-opacity=".4"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
    <rect width="600" height="600" fill="url(#g)"/><circle cx="300" cy="255" r="240" fill="url(#r)"/>
    ${view === 2 ? '' : '<ellipse cx="300" cy="440" rx="170" ry="22" fill="#000" fill-opacity=".12"/>'}
    <g transform="${transform}">${shape(p.kind, palette[0])}</g>${label}</svg>`;
}

/**
 * Renders an image SVG to WebP. Fast encoder settings: seeding runs on every fresh start. sharp
 * (libvips) is loaded on first use, so a start that seeds nothing never loads it.
 */
export async function renderImage(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).removeAlpha().webp({ quality: 80, effort: 0 }).toBuffer();
}
