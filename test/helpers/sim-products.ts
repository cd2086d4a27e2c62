/**
 * Products of the simulator's market that tests measure: popular devices that draw accessories,
 * small collectibles that draw lots, and ordinary goods.
 */
export const SIM_PRODUCTS = [
  'nintendo switch oled', 'iphone 13', 'sony wh-1000xm4', 'ps5 console', 'airpods pro', 'macbook air m1', 'canon eos r6', 'dyson v11',
  'samsung galaxy s21', 'gopro hero 10', 'kindle paperwhite', 'xbox series x', 'bose quietcomfort 45', 'apple watch series 7', 'dji mini 2',
  'pokemon charizard card', 'hot wheels redline', 'lego minifigure', 'funko pop', 'vintage pyrex bowl', 'beanie baby', 'barbie doll 1990',
  'topps baseball card', 'comic book spider-man', 'silver coin 1921', 'yugioh blue eyes', 'ceramic teapot', 'leather wallet', 'desk lamp',
  'hiking boots', 'wool sweater', 'cast iron skillet',
];
