import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

const nothing = () => undefined;
const IGNORE_ALL: TokenizerCallbacks = {
  onattribdata: nothing,
  onattribentity: nothing,
  onattribend: nothing,
  onattribname: nothing,
  oncdata: nothing,
  onclosetag: nothing,
  oncomment: nothing,
  ondeclaration: nothing,
  onend: nothing,
  onopentagend: nothing,
  onopentagname: nothing,
  onprocessinginstruction: nothing,
  onselfclosingtag: nothing,
  ontext: nothing,
  ontextentity: nothing,
};

/** The least any HTML reader does: htmlparser2's tokenizer over the whole page, entities decoded, nothing built. */
export function bareTokenize(html: string): void {
  const tokenizer = new Tokenizer({ decodeEntities: true }, IGNORE_ALL);
  tokenizer.write(html);
  tokenizer.end();
}
