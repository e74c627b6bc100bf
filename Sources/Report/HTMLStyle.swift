/// The HTML report's stylesheet and script, inlined into every report.
///
/// Design: the system font stack, a neutral palette with one accent, Apple's system colours for
/// severities (red, orange, grey) in their light and dark variants, tabular figures for numbers,
/// light and dark through `prefers-color-scheme`. The script only sorts the findings table and
/// opens images at full size; the page reads fine without it.
public enum HTMLStyle {
    public static let css = #"""
:root{color-scheme:light dark;
--bg:#ffffff;--surface:#f5f5f7;--fg:#1d1d1f;--muted:#6e6e73;--line:#e3e3e8;--accent:#0066cc;
--high:#d70015;--medium:#b25000;--low:#6e6e73;
--evaluate:#8e8cd8;--plan:#4f8fd6;--analyze:#a7b4c2;--upload:#5fb3a3;--record:#b57edc;--gpu:#e07000;--blended:#e5484d;--overdraw:#3f7be0;
--check-a:#e9e9ee;--check-b:#ffffff}
@media (prefers-color-scheme:dark){:root{
--bg:#161618;--surface:#232326;--fg:#f2f2f7;--muted:#98989f;--line:#37373b;--accent:#4da3ff;
--high:#ff453a;--medium:#ff9f0a;--low:#8e8e93;
--evaluate:#a3a1f0;--plan:#64a8f0;--analyze:#6f7c8a;--upload:#74cdbb;--record:#cf9bf0;--gpu:#ffa23a;--blended:#ff6369;--overdraw:#5c95f5;
--check-a:#2c2c30;--check-b:#38383d}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);scroll-behavior:smooth}
body{margin:0;font:15px/1.5 -apple-system,BlinkMacSystemFont,"SF Pro Text","Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:1200px;margin:0 auto;padding:28px 28px 56px}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:.88em}
.num{font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}
small{display:block;color:var(--muted);font-size:12.5px;margin-top:2px}
header{border-bottom:1px solid var(--line);padding-bottom:14px}
.brand{margin:0;font-size:12px;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
h1{margin:2px 0 12px;font-size:26px;font-weight:650;letter-spacing:-.01em;word-break:break-all}
.meta{display:flex;flex-wrap:wrap;gap:6px 28px;margin:0 0 14px}
.meta div{display:flex;gap:8px;align-items:baseline}
.meta dt{font-size:12px;color:var(--muted)}.meta dd{margin:0}
nav{display:flex;flex-wrap:wrap;gap:4px 18px;font-size:14px}
h2{margin:38px 0 14px;font-size:13px;font-weight:600;letter-spacing:.07em;text-transform:uppercase;color:var(--muted)}
h3{margin:18px 0 4px;font-size:16px;font-weight:600}
h3 .muted{font-weight:400;font-size:14px;margin-left:6px}
.note{color:var(--muted);font-size:13.5px;margin:8px 0}
.ok{padding:14px 16px;border-radius:10px;background:var(--surface)}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px}
.kpi{background:var(--surface);border-radius:12px;padding:14px 16px 12px}
.kpi b{display:block;white-space:nowrap;font-size:23px;font-weight:650;letter-spacing:-.01em;line-height:1.2}
.kpi>span{display:block;font-size:13px;margin-top:2px}
.kpi small{margin-top:6px}.kpi .sev{margin:0 4px 4px 0}
.stages{border-collapse:collapse;width:auto;min-width:360px}.stages td{padding:6px 24px 6px 0}.stages td.bar{width:260px}
.stages i{display:block;height:10px;border-radius:2px;min-width:1px}
.sev{display:inline-block;font-size:11.5px;font-weight:600;line-height:18px;padding:0 8px;border-radius:9px;text-transform:uppercase;letter-spacing:.04em}
.sev-high{color:var(--high);background:color-mix(in srgb,var(--high) 14%,transparent)}
.sev-medium{color:var(--medium);background:color-mix(in srgb,var(--medium) 14%,transparent)}
.sev-low{color:var(--low);background:color-mix(in srgb,var(--low) 14%,transparent)}
.preview{margin:0 0 14px}
.preview img{display:block;height:240px;width:auto;border-radius:6px;outline:1px solid var(--line)}
.preview figcaption{font-size:12.5px;margin-top:6px;color:var(--muted)}
.strip-wrap{position:relative}
.strip-wrap.scrolls::after{content:"";position:absolute;top:0;bottom:10px;right:0;width:48px;pointer-events:none;z-index:1;background:linear-gradient(to left,var(--bg),transparent)}
.strip{display:flex;gap:12px;overflow-x:auto;padding:2px 2px 10px;scrollbar-width:auto;scrollbar-color:var(--muted) transparent}
.strip-cue{margin:0 0 6px}
.strip figure{margin:0;flex:none;width:min-content}
.strip img{display:block;height:150px;width:auto;border-radius:6px;cursor:zoom-in;outline:1px solid var(--line)}
.strip .worst img{outline:2px solid var(--accent);outline-offset:2px}
.strip figcaption{font-size:12.5px;margin-top:6px;display:flex;flex-wrap:wrap;gap:0 6px;align-items:center}
.strip figcaption b{font-weight:600}.strip figcaption small{flex-basis:100%;margin:0;white-space:nowrap}
.dot{display:inline-block;width:8px;height:8px;border-radius:50%}
.dot.sev-high{background:var(--high)}.dot.sev-medium{background:var(--medium)}.dot.sev-low{background:var(--low)}
img,.checker{background:repeating-conic-gradient(var(--check-a) 0 25%,var(--check-b) 0 50%) 0 0/16px 16px}
.overlays{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:22px;margin-top:12px;align-items:start}
.overlays figure{margin:0}
.overlays figcaption{display:flex;gap:8px;align-items:baseline;margin-bottom:8px}
.overlays figcaption .muted{font-size:12.5px}
.overlays img{display:block;width:100%;height:auto;border-radius:8px;cursor:zoom-in;outline:1px solid var(--line)}
.legend{list-style:none;padding:0;margin:10px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:13px}
.legend li{display:flex;align-items:center;gap:6px}
.legend i{width:12px;height:12px;border-radius:3px;outline:1px solid color-mix(in srgb,var(--fg) 18%,transparent)}
.chart{margin:0 0 22px}
.chart figcaption{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline;font-size:13px;margin-bottom:4px}
.chart figcaption b{font-size:14px}
.key{display:inline-flex;align-items:center;gap:5px}.key i{width:10px;height:10px;border-radius:2px;display:inline-block}
.chart svg{display:block;width:100%;height:auto;overflow:visible}
.graph{overflow-x:auto;padding:4px 0 8px}.graph svg{display:block;font-family:inherit}.graph text{fill:#1c1c1e}.graph text.sub{fill:#636366}.graph .screen text{fill:#fff}.graph .screen text.sub{fill:#d1d1d6}
.chart text{font-size:11px;fill:var(--muted);font-variant-numeric:tabular-nums}
.ylabel{text-anchor:end}.xlabel{text-anchor:middle}
.grid{stroke:var(--line);stroke-width:1}
.ref{stroke:var(--muted);stroke-dasharray:4 4;stroke-width:1}
.marked{stroke:var(--accent);stroke-dasharray:3 3;stroke-width:1.5}
.hover{fill:transparent}.frame:hover .hover{fill:color-mix(in srgb,var(--fg) 7%,transparent)}
.s-evaluate{fill:var(--evaluate);background:var(--evaluate)}.s-plan{fill:var(--plan);background:var(--plan)}
.s-analyze{fill:var(--analyze);background:var(--analyze)}.s-upload{fill:var(--upload);background:var(--upload)}.s-record{fill:var(--record);background:var(--record)}
.s-gpu{background:var(--gpu)}.s-blended{fill:var(--blended);background:var(--blended)}.s-overdraw{fill:var(--overdraw);background:var(--overdraw)}
.gpu-line{fill:none;stroke:var(--gpu);stroke-width:2;stroke-linejoin:round}.gpu-dot{fill:var(--gpu)}
rect.mark.sev-high{fill:var(--high)}rect.mark.sev-medium{fill:var(--medium)}rect.mark.sev-low{fill:var(--low)}
table{width:100%;border-collapse:collapse;font-size:14px}
table.findings{table-layout:fixed}
table.findings col.c-sev{width:96px}table.findings col.c-id{width:170px}table.findings col.c-layer{width:190px}
table.findings col.c-frames{width:118px}table.findings col.c-px{width:150px}
table.findings .mono{word-break:break-all}table.findings code{word-break:break-word}
th{text-align:left;font-size:12px;font-weight:600;color:var(--muted);padding:8px 10px;border-bottom:1px solid var(--line);white-space:nowrap}
th[data-sort]{cursor:pointer;user-select:none}th[data-sort]:hover{color:var(--fg)}
th[aria-sort=descending]::after{content:" ↓"}th[aria-sort=ascending]::after{content:" ↑"}
td{padding:12px 10px;border-bottom:1px solid var(--line);vertical-align:top}
td.num{overflow-wrap:anywhere}
tr.finding:target{background:color-mix(in srgb,var(--accent) 10%,transparent)}

.fix-first ol{font-size:15px}.fix-first ol{margin:6px 0 0;padding-left:22px}.fix-first li{margin:3px 0}.fix-first li small{display:inline;color:var(--muted);margin-left:4px}
.fix{margin:6px 0 0}.fix b{color:var(--accent);font-weight:600;margin-right:4px}
.tree{font-size:14px;background:var(--surface);border-radius:12px;padding:10px 14px}
.tree details>*:not(summary),.tree details>.leaf{margin-left:20px}
.tree summary{cursor:pointer;padding:3px 0}
.tree .leaf{padding:3px 0 3px 16px}
.cls{font-size:11.5px;color:var(--muted);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.lname{font-weight:600}
.tag{font-size:11px;border:1px solid var(--line);border-radius:4px;padding:0 5px;color:var(--muted)}
.badge{font-size:11.5px;font-weight:600;border-radius:9px;padding:1px 8px;margin-left:2px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.badge:hover{text-decoration:none;filter:brightness(1.1)}
.inside{font-size:12px}
.warnings{padding-left:20px}.warnings li{margin:4px 0}
footer{margin-top:48px;padding-top:14px;border-top:1px solid var(--line);font-size:12.5px;color:var(--muted)}
dialog{border:0;padding:0;background:var(--bg);color:var(--fg);max-width:96vw;max-height:94vh;overflow:auto;border-radius:10px;box-shadow:0 20px 60px rgba(0,0,0,.45)}
dialog::backdrop{background:rgba(0,0,0,.6)}
dialog img{display:block;max-width:none;image-rendering:pixelated;cursor:zoom-out}
dialog p{margin:0;padding:8px 12px;font-size:13px;color:var(--muted);position:sticky;left:0}
@media (max-width:800px){main{padding:18px 14px 40px}h1{font-size:21px}table.findings{table-layout:auto;display:block;overflow-x:auto}td.why{min-width:260px}}
@media print{nav,dialog{display:none}.tree details{display:block}}
"""#

    public static let script = #"""
for (const th of document.querySelectorAll("th[data-sort]")) {
  const sort = () => {
    const table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex, num = th.dataset.type === "num";
    const cur = th.getAttribute("aria-sort");
    const dir = cur === "descending" ? 1 : cur === "ascending" ? -1 : (num ? -1 : 1);
    for (const o of table.querySelectorAll("th[data-sort]")) o.setAttribute("aria-sort", "none");
    th.setAttribute("aria-sort", dir < 0 ? "descending" : "ascending");
    const v = r => r.cells[col].dataset.v;
    [...body.rows].sort((a, b) => dir * (num ? v(a) - v(b) : v(a).localeCompare(v(b)))).forEach(r => body.appendChild(r));
  };
  th.addEventListener("click", sort);
  th.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
}
const zoom = document.getElementById("zoom");
if (zoom && zoom.showModal) {
  for (const img of document.querySelectorAll("img[data-zoom]")) {
    img.addEventListener("click", () => {
      zoom.querySelector("img").src = img.src;
      zoom.querySelector("p").textContent = img.dataset.zoom + " · " + img.naturalWidth + "×" + img.naturalHeight + " px";
      zoom.showModal();
    });
  }
  zoom.addEventListener("click", () => zoom.close());
}
"""#
}

extension HTMLStyle {
    /// Escapes text for HTML content and attribute values (for pages built outside this module).
    public static func escape(_ s: String) -> String { esc(s) }
}
