// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013) for puzzle solving:
// the learner is a player, each puzzle an opponent with a fixed rating; solving is a win.
//
//   import { update, INITIAL } from "/static/learn/glicko.js";
//   const next = update(INITIAL, [{ rating: 1400, rd: 30, score: 1 }]);  // {rating, rd, volatility}

const SCALE = 173.7178;
/** The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2). */
export const TAU = 0.5;
const EPSILON = 0.000001;
/** A new learner: rating 1500, deviation 350, volatility 0.06 (Glickman's defaults). */
export const INITIAL = Object.freeze({ rating: 1500, rd: 350, volatility: 0.06 });

function g(phi) {
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}

function expected(mu, muJ, phiJ) {
  return 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));
}

/** The volatility after a rating period (step 5 of the paper, the Illinois algorithm). */
function newVolatility(sigma, phi, v, delta, tau) {
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > EPSILON; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

/** The player's {rating, rd, volatility} after the games [{rating, rd, score}] of one period
 * (score 1 for a win, 0 for a loss, 0.5 for a draw); no games: only the deviation grows. */
export function update(player, games, tau = TAU) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;
  if (!games.length) {
    return { rating: player.rating, rd: Math.min(350, Math.sqrt(phi * phi + sigma * sigma) * SCALE), volatility: sigma };
  }
  let vInverse = 0;
  let sum = 0;
  for (const game of games) {
    const muJ = (game.rating - 1500) / SCALE;
    const phiJ = game.rd / SCALE;
    const e = expected(mu, muJ, phiJ);
    vInverse += g(phiJ) ** 2 * e * (1 - e);
    sum += g(phiJ) * (game.score - e);
  }
  const v = 1 / vInverse;
  const delta = v * sum;
  const sigmaNew = newVolatility(sigma, phi, v, delta, tau);
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + 1500, rd: phiNew * SCALE, volatility: sigmaNew };
}
