/** Small self-made SVG images for the demo data, so the demo needs nothing from elsewhere. */

export function avatarSvg(initials: string, [from, to]: [string, string]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" width="128" height="128">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="128" height="128" fill="url(#g)"/>
<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="52" font-weight="600" fill="#fff">${initials}</text>
</svg>`;
}

export const sceneSvgs = {
  sunrise: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675" width="1200" height="675">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b1026"/><stop offset=".55" stop-color="#3b2a6b"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
<rect width="1200" height="675" fill="url(#sky)"/>
<g fill="#fff" opacity=".85"><circle cx="120" cy="80" r="2"/><circle cx="300" cy="140" r="1.5"/><circle cx="520" cy="60" r="2"/><circle cx="760" cy="120" r="1.5"/><circle cx="980" cy="70" r="2"/><circle cx="1100" cy="160" r="1.5"/></g>
<path d="M90 60 L260 190" stroke="#fff" stroke-width="3" stroke-linecap="round" opacity=".7"/>
<path d="M0 560 L220 420 L390 520 L600 360 L820 500 L1000 400 L1200 520 L1200 675 L0 675 Z" fill="#1e1b4b"/>
<path d="M0 610 L260 520 L480 600 L700 500 L940 600 L1200 560 L1200 675 L0 675 Z" fill="#111827"/>
</svg>`,
  harbour: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675" width="1200" height="675">
<defs><linearGradient id="fog" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e0f2fe"/><stop offset=".6" stop-color="#bae6fd"/><stop offset="1" stop-color="#7dd3fc"/></linearGradient></defs>
<rect width="1200" height="675" fill="url(#fog)"/>
<circle cx="900" cy="170" r="70" fill="#fef3c7" opacity=".9"/>
<path d="M0 430 L150 400 L170 330 L190 400 L420 410 L440 300 L470 410 L700 420 L1200 400 L1200 460 L0 460 Z" fill="#64748b" opacity=".55"/>
<rect y="455" width="1200" height="220" fill="#0ea5e9" opacity=".55"/>
<path d="M420 520 L640 520 L610 560 L450 560 Z" fill="#1f2937"/><rect x="520" y="450" width="6" height="70" fill="#1f2937"/>
<path d="M526 455 L590 510 L526 510 Z" fill="#f8fafc"/>
<g stroke="#f0f9ff" stroke-width="3" opacity=".6"><path d="M80 600 h120"/><path d="M300 630 h160"/><path d="M760 590 h140"/><path d="M980 640 h120"/></g>
</svg>`,
  meadow: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675" width="1200" height="675">
<rect width="1200" height="675" fill="#bfdbfe"/>
<circle cx="220" cy="150" r="80" fill="#fde68a"/>
<path d="M0 420 Q300 330 600 410 T1200 390 L1200 675 L0 675 Z" fill="#4ade80"/>
<path d="M0 520 Q350 450 700 520 T1200 500 L1200 675 L0 675 Z" fill="#16a34a"/>
<g fill="#f472b6"><circle cx="200" cy="600" r="9"/><circle cx="420" cy="580" r="9"/><circle cx="760" cy="610" r="9"/><circle cx="1010" cy="590" r="9"/></g>
</svg>`,
  city: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 675" width="1200" height="675">
<rect width="1200" height="675" fill="#1e293b"/>
<circle cx="980" cy="120" r="50" fill="#f1f5f9"/>
<g fill="#334155"><rect x="80" y="300" width="140" height="375"/><rect x="260" y="200" width="120" height="475"/><rect x="420" y="340" width="180" height="335"/><rect x="640" y="160" width="110" height="515"/><rect x="800" y="280" width="160" height="395"/><rect x="1000" y="380" width="140" height="295"/></g>
<g fill="#facc15" opacity=".8"><rect x="110" y="340" width="20" height="20"/><rect x="290" y="240" width="20" height="20"/><rect x="470" y="380" width="20" height="20"/><rect x="670" y="220" width="20" height="20"/><rect x="840" y="320" width="20" height="20"/><rect x="1040" y="420" width="20" height="20"/></g>
</svg>`,
};

/** The demo scenes' size, the same for every scene. */
export const SCENE_SIZE = { width: 1200, height: 675 };

/** What each demo scene shows, for people who cannot see it. */
export const sceneAlts: Record<keyof typeof sceneSvgs, string> = {
  sunrise: 'A starry purple sky turning orange over dark mountains, with a shooting star.',
  harbour: 'A sailing boat on a misty blue harbour under a pale sun.',
  meadow: 'Green rolling hills dotted with pink flowers under a yellow sun.',
  city: 'Dark city towers with lit windows under a full moon.',
};
