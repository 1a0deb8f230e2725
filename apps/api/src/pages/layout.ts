/**
 * The page shell: a skip link, navigation, one inline stylesheet (no scripts, no external assets). Text
 * colours meet WCAG AA (≥ 4.5:1 on their backgrounds); the layout works from 390 px phones to wide
 * screens: tables scroll inside their own focusable frame, long text wraps, grids stack.
 */
import { FAUN_VERSION } from '@faun/kit';
import { h, Safe } from './h.ts';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2733;background:#f5f7fa}
.skip{position:absolute;left:-9999px;top:0;background:#fff;color:#1d2733;padding:8px 12px;z-index:10}.skip:focus{left:8px;top:8px}
:focus-visible{outline:3px solid #2f5fc4;outline-offset:2px}
header{background:#15202e;color:#fff;padding:8px 24px;display:flex;align-items:center;gap:8px 24px;flex-wrap:wrap;min-height:52px}
header .brand{font-weight:700;font-size:18px;letter-spacing:.5px;color:#fff;text-decoration:none}
header nav{display:flex;flex-wrap:wrap;gap:4px 18px}header nav a{color:#c9d4e3;text-decoration:none;font-size:14px}header nav a:hover,header nav a[aria-current]{color:#fff;text-decoration:underline}
main{max-width:1360px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:4px 0 4px;overflow-wrap:anywhere}h2{font-size:18px;margin:28px 0 10px}.sub{color:#5b6675;margin:0 0 18px;overflow-wrap:anywhere}
.card{background:#fff;border:1px solid #d5dce5;border-radius:8px;padding:16px 18px;margin-bottom:18px;min-width:0}
.scroll{overflow-x:auto;max-width:100%}.scroll+.scroll,.scroll+h3{margin-top:14px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:7px 10px;border-bottom:1px solid #e3e7ee;vertical-align:top}
th{font-weight:600;color:#4a5462;font-size:12px;text-transform:uppercase;letter-spacing:.4px;background:#fafbfc}
tbody tr:hover{background:#f4f7fb}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.ci{display:block;color:#5b6675;font-size:11px;white-space:nowrap}td.num,td.nowrap{white-space:nowrap}td.id{overflow-wrap:anywhere;min-width:9em}
td.answer{max-width:28ch;overflow-wrap:anywhere}
a{color:#2456b8;text-decoration:none}a:hover{text-decoration:underline}p a,dd a,li a{text-decoration:underline;text-underline-offset:2px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;white-space:nowrap}
.b-pass,.b-done,.b-ok{background:#1b7a58}.b-scored,.b-running,.b-queued{background:#2f5fc4}.b-fail,.b-failed{background:#b3261e}.b-error{background:#a3541a}
.b-timeout{background:#7040b0}.b-skipped,.b-notrun{background:#5b6675}.b-unparsed{background:#fff;color:#1d2733;border:1px solid #1d2733}
.stats{display:flex;gap:14px;flex-wrap:wrap;margin-bottom:18px}.stat{background:#fff;border:1px solid #d5dce5;border-radius:8px;padding:10px 16px;min-width:110px}
.stat b{display:block;font-size:22px}.stat span{color:#4a5462;font-size:12px;text-transform:uppercase;letter-spacing:.4px}
.progress{height:8px;background:#e3e7ee;border-radius:4px;overflow:hidden;margin:6px 0 18px}.progress div{height:100%;background:#2f5fc4}
form.filters{display:flex;gap:10px;align-items:end;flex-wrap:wrap;margin-bottom:12px}form.filters label{font-size:12px;color:#4a5462;display:flex;flex-direction:column;gap:3px}
select,input{font:inherit;padding:4px 8px;border:1px solid #8a94a3;border-radius:6px;background:#fff;color:#1d2733;max-width:100%}
button{font:inherit;padding:5px 14px;border:0;border-radius:6px;background:#2456b8;color:#fff;cursor:pointer}
pre{background:#0f1720;color:#dbe4ee;padding:10px 12px;border-radius:6px;font-size:12px;max-height:320px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.pager{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-top:10px;color:#4a5462;font-size:13px}.muted{color:#5b6675}
.tabs a{display:inline-block;padding:4px 12px;border:1px solid #8a94a3;border-radius:16px;margin:0 6px 8px 0;font-size:13px;color:#1d2733;background:#fff}
.tabs a.on{background:#15202e;color:#fff;border-color:#15202e}svg.chart{max-width:100%;height:auto;display:block}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr));gap:18px}.grid>.card{margin-bottom:0}.grid+.card,.grid+.grid{margin-top:18px}.card p{overflow-wrap:anywhere}
.cols{display:grid;grid-template-columns:repeat(var(--n,2),minmax(0,1fr));gap:12px}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.4px;color:#4a5462;margin:14px 0 6px}.card>h2:first-child{margin-top:0}
pre.text{background:#f7f9fc;color:#1d2733;border:1px solid #d5dce5;font:13px/1.5 ui-monospace,monospace}p.title{font-weight:600;margin:0;overflow-wrap:anywhere}
pre.diff{background:#fbfcfd;color:#1d2733;border:1px solid #d5dce5;white-space:pre;overflow-wrap:normal;max-height:520px}pre.diff .add{background:#e6f6ec;color:#135c35;display:inline-block;min-width:100%}
pre.diff .del{background:#fdecea;color:#8c1d16;display:inline-block;min-width:100%}pre.diff .hunk{color:#6f42c1}pre.diff .fh{color:#4a5462;font-weight:600}
.sr{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,260px),1fr));gap:8px}.sr pre{margin:2px 0 10px}pre.log{max-height:600px}.crumbs{margin:0;color:#4a5462;font-size:13px}
tr.link{position:relative}tr.link td.id a::after{content:"";position:absolute;inset:0}tr.link:hover{background:#eef3fb}th a.sort{color:inherit}
.turn{margin-bottom:8px}.error{border-color:#e0a39c;background:#fff6f5}.sig{color:#b3261e;font-weight:700}.better{color:#17704f}.worse{color:#b3261e}
.charts{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}.charts>div{flex:1 1 380px;min-width:0}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dl.kv dt{color:#4a5462}dl.kv dd{margin:0;overflow-wrap:anywhere}
#nav{justify-content:space-between;margin:0 0 14px}
footer{color:#4a5462;font-size:12px;text-align:center;padding:24px}
.charts h2{margin-top:0}.side h3{text-transform:none;font-size:15px;color:#1d2733;letter-spacing:0}h4{font-size:13px;margin:12px 0 4px}
@media (max-width:640px){main{padding:14px}header{padding:8px 14px}.card{padding:12px}.cols{grid-template-columns:minmax(0,1fr)}th,td{padding:6px 6px}.hide-sm{display:none}td.id{min-width:0}}`;

const NAV = [
  ['/leaderboard', 'Leaderboard'],
  ['/runs', 'Runs'],
  ['/compare', 'Compare'],
  ['/datasets', 'Datasets'],
  ['/docs', 'API'],
] as const;

/** The HTML document of a page; `section` marks the current navigation entry. */
export function layout(title: string, body: Safe, section?: string): string {
  const nav = NAV.map(
    ([href, label]) =>
      h`<a href="${href}"${new Safe(section === href ? ' aria-current="page"' : '')}>${label}</a>`,
  );
  return h`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · faun</title><style>${new Safe(CSS)}</style></head>
<body><a class="skip" href="#main">Skip to content</a><header><a class="brand" href="/">faun</a><nav aria-label="Main">${nav}</nav></header>
<main id="main" tabindex="-1">${body}</main><footer>faun ${FAUN_VERSION}</footer></body></html>`.html;
}

/** A table in a frame that scrolls sideways on narrow screens (focusable, so a keyboard can scroll it). */
export function scrollTable(label: string, table: Safe): Safe {
  return h`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}
