// Line icons drawn for shogiban (24x24, stroked with currentColor): no icon font, no emoji font
// needed, so they look the same on every system.

const PATHS = {
  computer: ["M4 5h16a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z", "M9 20h6", "M12 16v4"],
  link: [
    "M10 14a4 4 0 0 1 0-5.66l2.83-2.83a4 4 0 0 1 5.66 5.66l-1.42 1.41",
    "M14 10a4 4 0 0 1 0 5.66l-2.83 2.83a4 4 0 0 1-5.66-5.66l1.42-1.41",
  ],
  people: [
    "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z", "M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6",
    "M16.5 11.5a2.5 2.5 0 1 0 0-5", "M17 14.3c2.3.5 4 2.8 4 5.7",
  ],
  record: ["M6 3h12a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z", "M8.5 8h7", "M8.5 12h7", "M8.5 16h4"],
  learn: ["M2 9l10-5 10 5-10 5z", "M6 11v5c0 1.4 2.7 3 6 3s6-1.6 6-3v-5", "M22 9v6"],
  puzzle: ["M12 3l6.2 3.2L20 21H4L5.8 6.2z", "M9 12l2 2 4-4"],
  folder: ["M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z", "M12 10v6", "M9 13l3-3 3 3"],
  comment: ["M4 5h16v10H9l-5 4z"],
  trophy: ["M8 4h8v5a4 4 0 0 1-8 0z", "M12 13v4", "M8 20h8", "M8 6H5a3 3 0 0 0 3 4", "M16 6h3a3 3 0 0 1-3 4"],
  first: ["M6 5v14", "M18 5l-9 7 9 7z"],
  prev: ["M16 5l-9 7 9 7z"],
  next: ["M8 5l9 7-9 7z"],
  last: ["M18 5v14", "M6 5l9 7-9 7z"],
  flip: ["M8 20V4", "M4 8l4-4 4 4", "M16 4v16", "M12 16l4 4 4-4"],
  piece: ["M12 3l6.2 3.2L20 21H4L5.8 6.2z"],
  sound: ["M4 9h4l5-4v14l-5-4H4z", "M16 9a4 4 0 0 1 0 6", "M18.5 6.5a7.5 7.5 0 0 1 0 11"],
  mute: ["M4 9h4l5-4v14l-5-4H4z", "M16 9.5l5 5", "M21 9.5l-5 5"],
};

/** An <svg> icon; `name` is a key of PATHS. */
export function icon(name, className = "icon") {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "1.8");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  for (const d of PATHS[name] || []) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  return svg;
}
