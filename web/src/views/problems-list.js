// The problems of the open file under the editor (`problems`, with `data-count`): one line each,
// `line:col code message`, as the checkers found them (docs/problems.md). Hidden when there are none.

/** @typedef {[number, number, string, string]} ProblemRow */

/** @param {HTMLElement} section */
export function createProblemsList(section) {
  const list = document.createElement("ul");
  section.append(list);
  return {
    /** @param {ProblemRow[]} rows */
    show(rows) {
      section.dataset.count = String(rows.length);
      section.hidden = rows.length === 0;
      list.replaceChildren(
        ...rows.map(([line, col, code, message]) => {
          const item = document.createElement("li");
          const where = `${line}:${col}`;
          const codeSpan = Object.assign(document.createElement("span"), {
            className: "problem-code",
            textContent: code,
          });
          item.append(where, codeSpan, message);
          item.title = `${where} ${code} ${message}`;
          return item;
        }),
      );
    },
  };
}
