// flite and festival read text as bytes of ASCII: a curly apostrophe or an accented letter in UTF-8 becomes
// noise or is dropped ("Café" is spoken "caf"). Their text is folded to the ASCII it would be typed as.

// Letters that Unicode decomposition does not split into a base letter and a mark.
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'Ae',
  œ: 'oe',
  Œ: 'Oe',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
};

export function toAsciiSpeech(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
      .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
      // Dashes between words are pauses, spoken like a comma.
      .replace(/\s*[\u2013\u2014\u2015]\s*/g, ', ')
      .replace(/[\u2010\u2011\u2012]/g, '-')
      .replace(/[^\t\n\r -~]/g, (c) => LETTERS[c] ?? ' ')
  );
}
