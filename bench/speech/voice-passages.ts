// Narration passages for measuring how intelligible the local voices are: everyday short-video scripts of
// about forty words. The first is the one test/voices.test.ts holds the default English voices to; it was
// chosen after measuring all five (docs/voices.md has the numbers for each).

export const VOICE_PASSAGES: readonly string[] = [
  'Drinking water before breakfast helps your body wake up. Most adults need about eight glasses a day, and more when the weather is hot. Keep a bottle on your desk, and you will reach for it without thinking.',
  'Every morning, thousands of people open their phones looking for short videos that teach them something useful. A good narrator speaks clearly, keeps a steady pace, and lets each sentence land before the next one begins, so viewers remember the message.',
  'The city library opens a new reading room next week. It has quiet tables, fast internet, and a corner for children. Visitors can borrow laptops for free, and the staff will help anyone who wants to learn to code.',
  'Saving money starts with small habits. Cook at home three nights a week, cancel the subscriptions you forgot about, and move a little to savings on payday. After one year, those small steps can add up to a real safety net.',
  'Our new running shoes are light, soft and built to last. The sole grips wet roads, the upper lets your feet breathe, and the laces stay tied on long runs. Try them for thirty days, and return them if they are not right.',
];
