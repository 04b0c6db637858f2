// Node, Bun and Deno: the client's checks against the mock whose address is the first argument (JSON).
import * as emporio from 'emporio';
import { clientScenario } from './client-scenario.mjs';

const params = JSON.parse(globalThis.Deno ? globalThis.Deno.args[0] : process.argv[2]);
console.log(JSON.stringify(await clientScenario(emporio, params)));
