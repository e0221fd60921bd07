/**
 * Postal addresses as participants write them, one span from the street to the city: a street
 * with its house number in each country's order, then optionally a postcode and a city.
 *   - English: "221B Baker Street", "12 High St, Bristol BS1 4DJ", "1600 Pennsylvania Avenue NW, Washington, DC 20500";
 *   - Dutch: "Keizersgracht 123-II, 1015 CJ Amsterdam", "Laan van Meerdervoort 5";
 *   - German: "Hauptstraße 5a, 10115 Berlin", "Am Markt 3", "Bahnhofstr. 12";
 *   - French: "12 bis rue de la Paix, 75002 Paris", "5, avenue Victor Hugo";
 *   - Spanish: "Calle de Alcalá 23, 28013 Madrid", "C/ Mayor 5, 3º B", "Avda. de la Constitución, 12".
 * A street word without a house number ("on Baker Street", "in der Hauptstraße") is a place, not an address.
 */

export interface AddressSpan {
  start: number;
  end: number;
}

const CAP = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`;
const NAME_WORDS = String.raw`${CAP}(?:[ \u00a0](?:(?:of|the|de|del|de la|de los|des|du|d'|d’|la|le|les|van|van de|van der|der|den|von|am|an|im|zum|zur|y)[ \u00a0])?${CAP}){0,3}`;

const HOUSE_NUMBER = String.raw`\d{1,5}(?:bis|ter|[ \u00a0]?[a-zA-Z](?![\p{L}]))?(?:[-/]\d{1,4}[a-zA-Z]?|-(?:I{1,3}|IV|hs|bis|huis)|[ \u00a0](?:bis|ter|hs|huis)(?![\p{L}]))?`;
/** A floor or door written with the number: Dutch "3-hoog", German "3. OG", "2. Stock". */
const FLOOR = String.raw`(?:[ \u00a0-](?:\d[ \u00a0-]?)?hoog(?![\p{L}])|,?[ \u00a0]+\d{1,2}\.[ \u00a0]?(?:OG|Stock|Etage|Obergeschoss|UG|EG)(?![\p{L}]))?`;

const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]?[ \u00a0]?\d[A-Z]{2}`;
/** Postcode and city after a street: "1015 CJ Amsterdam", "10115 Berlin", "75002 Paris", "28013 Madrid", "Bristol BS1 4DJ", "Washington, DC 20500". */
const CITY = String.raw`(?!(?:It|The|But|And|So|Then|Which|That|This|There|We|He|She|They|You|My|Our|If|When|Where|Und|Aber|Dann|Das|Die|Der|Es|Wir|Ich|Et|Mais|Puis|Il|Elle|On|Nous|Je|Y|Pero|Luego|Es|Eso|Yo|En|Maar|Dan|Het|Ik|We|Wij)(?![\p{L}]))(?:'s-)?\p{Lu}[\p{L}\p{M}'’-]+(?![\p{N}])(?:[ \u00a0](?:am|an|der|de|en|sur|le|la|del|upon|on|aan|den|im)[ \u00a0]\p{Lu}[\p{L}\p{M}'’-]+(?![\p{N}])|[ \u00a0](?!${UK_POSTCODE})\p{Lu}[\p{L}\p{M}'’-]+(?![\p{N}]))?`;
const POSTCODE_CITY = String.raw`(?:,?[ \u00a0]+(?:\d{4}[ \u00a0]?[A-Z]{2}|[A-Z]-?\d{4,5}|\d{5}|\d{4})[ \u00a0]+${CITY}|,[ \u00a0]*${CITY}(?:,?[ \u00a0]+(?:${UK_POSTCODE}|[A-Z]{2}[ \u00a0]+\d{5}(?:-\d{4})?))?|,?[ \u00a0]+${UK_POSTCODE})`;

const EN_STREET_TYPES = String.raw`(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Drive|Dr\.?|Boulevard|Blvd\.?|Way|Court|Ct\.?|Place|Pl\.?|Terrace|Close|Crescent|Square|Sq\.?|Gardens|Grove|Row|Parkway|Highway|Hwy\.?|Mews|Walk|Hill|Park)`;
const EN_DIRECTION = String.raw`(?:[ \u00a0](?:NW|NE|SW|SE|N|S|E|W)\.?(?![\p{L}]))?`;
const EN_UNIT = String.raw`(?:,?[ \u00a0]+(?:Apt\.?|Apartment|Suite|Unit|Flat|Floor)[ \u00a0]+\w{1,5})?`;
const EN_UNIT_BEFORE = String.raw`(?:(?:Flat|Apt\.?|Apartment|Suite|Unit)[ \u00a0]+[\p{L}\p{N}]{1,5},?[ \u00a0]+)?`;
const ENGLISH = String.raw`(?<![\p{L}\p{N}])${EN_UNIT_BEFORE}${HOUSE_NUMBER},?[ \u00a0]+${NAME_WORDS}[ \u00a0]${EN_STREET_TYPES}(?![\p{L}])${EN_DIRECTION}${EN_UNIT}`;

/** One-word street names of German and Dutch ("Hauptstraße", "Keizersgracht", "Kurfürstendamm") and the two-word German and Dutch ones. */
const COMPOUND_STREET = String.raw`(?:${CAP}[ \u00a0](?:(?:de|van|der|den|von|la|le|'t)[ \u00a0])?){0,2}\p{Lu}[\p{L}\p{M}-]*(?:straße|strasse|str\.|weg|platz|allee|gasse|ring|damm|ufer|chaussee|steig|markt|straat|laan|plein|gracht|kade|singel|dijk|steeg|pad|dreef|hof|wal|burgwal|markt|park)`;
const SPACED_STREET = String.raw`(?:${CAP}[ \u00a0])?(?:Straße|Strasse|Str\.|Weg|Platz|Allee|Gasse|Ring|Damm|Ufer|Markt)(?:[ \u00a0](?:des|der|am|an|zum|zur)[ \u00a0][\p{L}\p{N}. ]{1,20}?)?|(?:Am|An der|Auf dem|Im|In der|Zum|Zur)[ \u00a0]${CAP}|(?:Laan|Plein|Weg|Kade)[ \u00a0](?:van|der|de|op|aan)[ \u00a0]${NAME_WORDS}`;
const GERMANIC = String.raw`(?<![\p{L}\p{N}])(?:${COMPOUND_STREET}|${SPACED_STREET})(?:[ \u00a0]${CAP})?,?[ \u00a0]+${HOUSE_NUMBER}(?![\p{N}])${FLOOR}`;

const FR_STREET_TYPES = String.raw`(?:[Rr]ue|[Aa]venue|[Aa]v\.|[Bb]oulevard|[Bb]d|[Bb]ld|[Cc]hemin|[Pp]lace|[Aa]llées?|[Ii]mpasse|[Qq]uai|[Rr]oute|[Cc]ours|[Ss]quare|[Pp]assage|[Rr]ond-point|[Cc]haussée)`;
const FRENCH = String.raw`(?<![\p{L}\p{N}])${HOUSE_NUMBER},?[ \u00a0]+${FR_STREET_TYPES}[ \u00a0]+(?:(?:de la|de l'|de l’|du|des|de|d'|d’)[ \u00a0]*)?${NAME_WORDS}`;

const ES_STREET_TYPES = String.raw`(?:[Cc]alle|[Cc]/|[Cc]\.|[Aa]venida|[Aa]vda\.?|[Aa]v\.|[Pp]laza|[Pp]za\.|[Pp]aseo|[Pp]º|[Cc]amino|[Cc]arrera|[Rr]onda|[Tt]ravesía|[Gg]lorieta|[Cc]arretera|[Rr]ambla|Passeig|Carrer|Avinguda|Plaça|Via|Vía)`;
const ES_FLOOR = String.raw`(?:,?[ \u00a0]+\d{1,2}[ºª°]?(?:[ \u00a0]?[A-Z]|[ \u00a0]?(?:izq|dcha)\.?)?(?![\p{L}\p{N}]))?`;
const SPANISH = String.raw`(?<![\p{L}\p{N}])${ES_STREET_TYPES}[ \u00a0]*(?:(?:de la|de los|de las|del|de)[ \u00a0]+)?${NAME_WORDS},?[ \u00a0]+(?:n[º°o]\.?[ \u00a0]*)?\d{1,4}(?:[ \u00a0]?[A-Za-z](?![\p{L}]))?${ES_FLOOR}`;

/** The French street comes before its number too, in Belgium and in writing like "rue de Rivoli 12". */
const FRENCH_NUMBER_AFTER = String.raw`(?<![\p{L}\p{N}])${FR_STREET_TYPES}[ \u00a0]+(?:(?:de la|de l'|de l’|du|des|de|d'|d’)[ \u00a0]*)?${NAME_WORDS},?[ \u00a0]+${HOUSE_NUMBER}(?![\p{N}])`;

/** A street without a street word ("58 Kingsway") is an address only with a postcode after it. */
const POSTCODE_AFTER = String.raw`(?:,?[ \u00a0]+(?:\d{4}[ \u00a0]?[A-Z]{2}|\d{5})[ \u00a0]+${CITY}|,[ \u00a0]*${CITY},?[ \u00a0]+(?:${UK_POSTCODE}|[A-Z]{2}[ \u00a0]+\d{5}(?:-\d{4})?)|,?[ \u00a0]+${UK_POSTCODE})`;
const BARE_STREET = new RegExp(String.raw`(?<![\p{L}\p{N}])${HOUSE_NUMBER},?[ \u00a0]+${NAME_WORDS}${POSTCODE_AFTER}`, 'gu');
/** The same with the number after the street, as Dutch, German and Belgian streets are written ("Lange Voorhout 9, 2514 EA Den Haag"). */
const BARE_STREET_NUMBER_AFTER = new RegExp(String.raw`(?<![\p{L}\p{N}])${NAME_WORDS}[ \u00a0]+${HOUSE_NUMBER}${POSTCODE_AFTER}`, 'gu');

const STREETS = [ENGLISH, GERMANIC, FRENCH, SPANISH, FRENCH_NUMBER_AFTER].map((street) => new RegExp(`${street}(?:${POSTCODE_CITY})?`, 'gu'));

export function findAddresses(text: string): AddressSpan[] {
  const spans: AddressSpan[] = [];
  for (const pattern of STREETS) {
    for (const match of text.matchAll(pattern)) {
      let end = match.index + match[0].length;
      // Sentence punctuation after an abbreviation ("St.") stays in the text.
      while (end > match.index && /[\s,]/u.test(text.charAt(end - 1))) end -= 1;
      spans.push({ start: match.index, end });
    }
  }
  for (const pattern of [BARE_STREET, BARE_STREET_NUMBER_AFTER]) {
    for (const match of text.matchAll(pattern)) spans.push({ start: match.index, end: match.index + match[0].length });
  }
  // The longest reading of overlapping matches wins.
  const sorted = spans.sort((a, b) => b.end - b.start - (a.end - a.start));
  const kept: AddressSpan[] = [];
  for (const span of sorted) if (!kept.some((other) => span.start < other.end && other.start < span.end)) kept.push(span);
  return kept.sort((a, b) => a.start - b.start);
}
