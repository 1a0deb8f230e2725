/** The page shell: navigation and one inline stylesheet (no scripts, no external assets). */
import { FAUN_VERSION } from '@faun/kit';
import { h, Safe } from './h.ts';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2733;background:#f5f7fa}
header{background:#15202e;color:#fff;padding:0 24px;display:flex;align-items:center;gap:24px;height:52px}
header .brand{font-weight:700;font-size:18px;letter-spacing:.5px;color:#fff;text-decoration:none}
header nav a{color:#c9d4e3;text-decoration:none;margin-right:18px;font-size:14px}header nav a:hover{color:#fff}
main{max-width:1120px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:4px 0 4px}h2{font-size:18px;margin:28px 0 10px}.sub{color:#5b6675;margin:0 0 18px}
.card{background:#fff;border:1px solid #e1e6ed;border-radius:8px;padding:16px 18px;margin-bottom:18px;overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:7px 10px;border-bottom:1px solid #edf0f4;vertical-align:top}
th{font-weight:600;color:#5b6675;font-size:12px;text-transform:uppercase;letter-spacing:.4px;background:#fafbfc}
tbody tr:hover{background:#f7f9fc}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.ci{display:block;color:#7a8594;font-size:11px;white-space:nowrap}td.num,td.muted,td.id{white-space:nowrap}a{color:#2456b8;text-decoration:none}a:hover{text-decoration:underline}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.b-pass{background:#2f9e77}.b-scored{background:#3b6fd8}.b-fail{background:#d0463b}.b-error{background:#d9822b}.b-timeout{background:#8e5bd3}.b-skipped{background:#9aa5b1}
.b-done{background:#2f9e77}.b-running,.b-queued{background:#3b6fd8}
.stats{display:flex;gap:14px;flex-wrap:wrap;margin-bottom:18px}.stat{background:#fff;border:1px solid #e1e6ed;border-radius:8px;padding:10px 16px;min-width:120px}
.stat b{display:block;font-size:22px}.stat span{color:#5b6675;font-size:12px;text-transform:uppercase;letter-spacing:.4px}
.progress{height:8px;background:#e3e7ee;border-radius:4px;overflow:hidden;margin:6px 0 18px}.progress div{height:100%;background:#3b6fd8}
form.filters{display:flex;gap:10px;align-items:end;flex-wrap:wrap;margin-bottom:12px}form.filters label{font-size:12px;color:#5b6675;display:flex;flex-direction:column;gap:3px}
select,input{font:inherit;padding:4px 8px;border:1px solid #c9d1dc;border-radius:6px;background:#fff}button{font:inherit;padding:5px 14px;border:0;border-radius:6px;background:#2456b8;color:#fff;cursor:pointer}
pre{background:#0f1720;color:#dbe4ee;padding:10px 12px;border-radius:6px;font-size:12px;max-height:320px;overflow:auto;white-space:pre-wrap}
.pager{display:flex;gap:12px;align-items:center;margin-top:10px;color:#5b6675;font-size:13px}.muted{color:#7a8594}
.tabs a{display:inline-block;padding:4px 12px;border:1px solid #c9d1dc;border-radius:16px;margin:0 6px 8px 0;font-size:13px;color:#1d2733;background:#fff}
.tabs a.on{background:#15202e;color:#fff;border-color:#15202e}svg.chart{max-width:100%;height:auto}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:18px}.grid>.card{margin-bottom:0}.grid+.card{margin-top:18px}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.4px;color:#5b6675;margin:14px 0 6px}.card>h2:first-child{margin-top:0}
pre.text{background:#f7f9fc;color:#1d2733;border:1px solid #e1e6ed;font:13px/1.5 ui-monospace,monospace}p.title{font-weight:600;margin:0}
pre.diff{background:#fbfcfd;color:#1d2733;border:1px solid #e1e6ed;white-space:pre;max-height:520px}pre.diff .add{background:#e6f6ec;color:#135c35;display:inline-block;min-width:100%}
pre.diff .del{background:#fdecea;color:#8c1d16;display:inline-block;min-width:100%}pre.diff .hunk{color:#6f42c1}pre.diff .fh{color:#5b6675;font-weight:600}
.sr{display:grid;grid-template-columns:1fr 1fr;gap:8px}.sr pre{margin:2px 0 10px}pre.log{max-height:600px}.crumbs{margin:0;color:#5b6675;font-size:13px}
tr.link{position:relative}tr.link td.id a::after{content:"";position:absolute;inset:0}tr.link:hover{background:#eef3fb}th a.sort{color:inherit}
.turn{margin-bottom:8px}.error{border-color:#f0b5ae;background:#fff6f5}.sig{color:#d0463b;font-weight:700}.better{color:#2f9e77}.worse{color:#d0463b}
#nav{justify-content:space-between;margin:0 0 14px}
footer{color:#9aa5b1;font-size:12px;text-align:center;padding:24px}`;

export function layout(title: string, body: Safe): string {
  return h`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · faun</title><style>${new Safe(CSS)}</style></head>
<body><header><a class="brand" href="/">faun</a><nav><a href="/leaderboard">Leaderboard</a><a href="/runs">Runs</a><a href="/datasets">Datasets</a><a href="/docs">API</a></nav></header>
<main>${body}</main><footer>faun ${FAUN_VERSION}</footer></body></html>`.html;
}
