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
};
