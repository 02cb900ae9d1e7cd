// The QR code of each seat on a sheet of students' seats, drawn here in the instructor's
// browser: a sheet of 1,000 seats costs the server that streams the class a few page loads' work.
import { renderSVG } from "/vendor/uqr/index.mjs";

// Medium error correction survives a crease and a printer's streaks; the four-module quiet
// zone and the white ground let a phone find the code on any paper.
const QR = { ecc: "M", border: 4, pixelSize: 1, whiteColor: "#fff", blackColor: "#000" };

for (const box of document.querySelectorAll(".seat-qr[data-link]")) {
  box.innerHTML = renderSVG(box.dataset.link, QR);
}
