// Tables that sort by any column. On a narrow screen each row becomes a
// small card whose cells carry their column's name (data-label).
import { h } from './dom.js';

let seq = 0;

// table returns a table in a scrollable, keyboard-focusable region.
// columns: [{label, cell(row) -> node|string, value(row) -> number|string
// (set to sort by this column), numeric, class}]. caption names the table
// for screen readers (shown when showCaption). sort: {col, dir: 1|-1} is
// the initial order; without it rows keep their order.
export function table({ caption, columns, rows, sort = null, showCaption = false, rowProps = null }) {
  const id = `table-${++seq}`;
  const tbody = h('tbody');
  let state = sort ? { ...sort } : null;

  const heads = columns.map((c, i) => {
    const th = h('th', { scope: 'col', class: [c.numeric && 'num', c.class] });
    if (c.value) {
      const btn = h('button', { type: 'button', class: 'sort', onclick: () => {
        state = { col: i, dir: state && state.col === i ? -state.dir : (c.numeric ? -1 : 1) };
        render();
      } }, c.label, h('span', { class: 'sort-icon', 'aria-hidden': 'true' }));
      th.appendChild(btn);
    } else {
      th.textContent = c.label;
    }
    return th;
  });

  function render() {
    let ordered = rows;
    if (state) {
      const { col, dir } = state;
      const v = columns[col].value;
      ordered = rows.map((r, i) => [r, i]).sort(([a, ia], [b, ib]) => {
        const x = v(a);
        const y = v(b);
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return c * dir || ia - ib;
      }).map(([r]) => r);
    }
    heads.forEach((th, i) => {
      if (!columns[i].value) return;
      const on = state && state.col === i;
      th.setAttribute('aria-sort', on ? (state.dir > 0 ? 'ascending' : 'descending') : 'none');
    });
    tbody.replaceChildren(...ordered.map((r) => h('tr', rowProps ? rowProps(r) : {},
      columns.map((c) => h('td', { class: [c.numeric && 'num', c.class], 'data-label': c.label }, c.cell(r))))));
  }
  render();

  return h('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': id, tabindex: 0 },
    h('table', {},
      h('caption', { id, class: showCaption ? null : 'sr-only', text: caption }),
      h('thead', {}, h('tr', {}, heads)),
      tbody));
}
