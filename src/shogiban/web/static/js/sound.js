// The sound of a piece placed on the board: a short wooden "pachi" synthesised with WebAudio
// (no sound file).  Off when localStorage["shogiban.sound"] is "off".

const KEY = "shogiban.sound";
let context = null;

/** Whether sounds are on. */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch (error) {
    return true;
  }
}

/** Turn sounds on or off (remembered). */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (error) {
    // Not remembered: the choice holds for this page.
  }
}

/** Play the placing sound (louder for a capture). */
export function placeSound(capture = false) {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume();
    const length = Math.floor(context.sampleRate * 0.06);
    const buffer = context.createBuffer(1, length, context.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 5;
    const source = context.createBufferSource();
    source.buffer = buffer;
    const filter = context.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = capture ? 1300 : 1700;
    filter.Q.value = 1.4;
    const gain = context.createGain();
    gain.gain.value = capture ? 0.9 : 0.6;
    source.connect(filter).connect(gain).connect(context.destination);
    source.start();
  } catch (error) {
    // Audio is a nicety: a browser that refuses it plays silently.
  }
}
