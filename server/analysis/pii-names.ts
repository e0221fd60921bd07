import { escapeRegExp } from '../lib/escape-reg-exp.js';
import { givenNameSureness } from './given-names.js';

/**
 * People's names in what participants say, in the five interview languages. A name is found by
 * what points at it, never by capitals alone (German capitalises every noun, every language its
 * sentence starts, and products and places are capitalised too):
 *   - a title: Mr, Mrs, Ms, Dr, Prof, Herr, Frau, M., Mme, Mlle, Sr., Sra., Dhr., Mevr., meneer…;
 *   - an introduction: "my name is", "ich heiße", "je m'appelle", "me llamo", "ik heet",
 *     "called"/"named" (not after "an app called", "a company named");
 *   - a relation: "my colleague", "meine Kollegin", "ma collègue", "mi jefe", "mijn collega";
 *   - talking to someone: "X from support", "spoke to X", "hablé con X", "sprak met X";
 *   - a given name from a compact list (given-names.ts), with the surname that follows it.
 * Each is one span: given name, particles and surname ("Jan van der Berg", "María de la Cruz"); a
 * title stays outside it. Brands, products, places, months and weekdays are never names, and a
 * surname found once is a name wherever else it turns up in the same text.
 */

export interface NameSpan {
  start: number;
  end: number;
}

const CAP = String.raw`(?:\p{Lu}['’])?\p{Lu}[\p{Ll}\p{M}]+(?:[-'’]?\p{Lu}[\p{Ll}\p{M}]+)*`;
const PARTICLE = String.raw`(?:El|Al|Ben|Bin|Abu|van der|van den|van de|van 't|von der|von dem|von|van|vander|de la|de las|de los|del|de|der|den|di|da|du|le|la|ten|ter|zu|y|e)`;
/** A capitalised word or a run of them, particles inside: "Anna", "Jan van der Berg", "María de la Cruz". */
const NAME_RUN = String.raw`${CAP}(?:[ \u00a0](?:${PARTICLE}[ \u00a0])?${CAP}){0,3}`;
/** After a title or a cue a surname can start with its particle: "Mevrouw de Vries", "M. Le Gall". */
const NAME_AFTER_CUE = String.raw`(?:(?:${PARTICLE})[ \u00a0])?${NAME_RUN}`;

/** Titles and honorifics, part of the name's span ("Dr. Anna de Vries", "Herr Dr. Lehmann", "doña Carmen Ortega"). */
const TITLE = String.raw`(?:Mr|Mrs|Ms|Mx|Miss|Dr|Drs|Prof|Professor|Doctor|Doctora|Doktor|Docteur|Dokter|Herr|Herrn|Frau|Mme|Mlle|Madame|Mademoiselle|Monsieur|M\.|Sr|Sra|Srta|Señor|Señora|Señorita|Don|Doña|Dhr|Mevr|Mevrouw|Meneer|Mijnheer|Juffrouw|Pfarrer|Pater|Père|Padre|Sir|Dame|Lord|Lady|De heer|de heer|mevrouw|meneer|mijnheer|dokter|doctor|doctora|señor|señora|señorita|don|doña|monsieur|madame|frau|herr|herrn)`;
const TITLES = String.raw`${TITLE}\.?(?:[ \u00a0]+${TITLE}\.?)*`;
const TITLE_CUE = new RegExp(String.raw`(?<![\p{L}\p{N}])${TITLES}[ \u00a0]+(?=${NAME_AFTER_CUE})`, 'gu');

/** Words that introduce one's own or someone's name; the name follows. */
const INTRODUCTION_CUE = new RegExp(
  String.raw`(?<![\p{L}])(?:my name is|my name's|my name’s|call me|i am called|i'm called|i’m called|named|called|name of|ich heiße|ich heisse|ich bin der|ich bin die|mein name ist|heißt|heisst|namens|genannt|je m'appelle|je m’appelle|mon nom est|moi c'est|moi c’est|s'appelle|s’appelle|appelée?|nommée?|me llamo|mi nombre es|se llama|llamad[oa]|ik heet|mijn naam is|heet|genaamd|noemt|someone called|introduced himself as|introduced herself as|introduced themselves as|goes by|signed as|stellte sich als|sich vorgestellt als|s'est présenté comme|s'est présentée comme|se presentó como|stelde zich voor als|a certain|een zekere|een zeker|einen gewissen|einer gewissen|eine gewisse|ein gewisser|un certain|une certaine|un tal|una tal|un tal de)[ \u00a0:,]+`,
  'giu',
);

/** A thing, not a person, before "called"/"named" and the like: "an app called Notion", "die Firma namens Acme". */
const THING_BEFORE_NAMING = new RegExp(
  String.raw`(?<![\p{L}])(?:app|apps|tool|tools|product|products|company|companies|program|programme|software|website|site|platform|service|feature|plugin|plug-in|extension|file|folder|report|project|team|channel|group|game|brand|shop|store|firm|startup|agency|bank|town|city|village|place|street|restaurant|hotel|bar|café|cafe|book|show|series|film|movie|song|band|podcast|newsletter|course|module|thing|something|system|device|model|option|setting|button|menu|tab|page|screen|dashboard|template|plan|package|bundle|board|list|it|this|that|it's|it’s|that's|that’s|what's|firma|programm|plattform|dienst|funktion|datei|projekt|kanal|gruppe|spiel|marke|laden|geschäft|ort|stadt|dorf|straße|buch|serie|das|es|application|appli|outil|logiciel|entreprise|société|plateforme|fonction|fichier|projet|équipe|groupe|jeu|marque|boutique|magasin|ville|rue|livre|série|ça|cela|aplicación|herramienta|programa|empresa|servicio|función|archivo|proyecto|equipo|grupo|juego|tienda|ciudad|pueblo|calle|restaurante|libro|película|eso|esto|programma|bedrijf|dienst|functie|bestand|kanaal|groep|spel|merk|winkel|stad|dorp|straat|boek|het|dat|dit)\b(?:[ \u00a0]+\S+){0,2}[ \u00a0]*$`,
  'iu',
);

/** A person before "called"/"named" and the like: what follows is a name even when the list does not know it. */
const PERSON_BEFORE_NAMING = new RegExp(
  String.raw`(?<![\p{L}])(?:someone|somebody|anyone|a guy|a man|a woman|a lady|a girl|a boy|a person|a gentleman|a nurse|a doctor|an agent|an engineer|a rep|a representative|a consultant|a colleague|a friend|i'm|i’m|i am|she's|he's|she is|he is|they're|jemand|ein mann|eine frau|ein kollege|eine kollegin|ein herr|eine dame|einen herrn|ein typ|er|sie|quelqu'un|quelqu’un|un homme|une femme|un monsieur|une dame|un type|un gars|un collègue|une collègue|il|elle|alguien|un chico|una chica|un señor|una señora|un hombre|una mujer|un compañero|una compañera|un tío|una tía|que|iemand|een man|een vrouw|een meneer|een mevrouw|een jongen|een meisje|een collega|een gast|hij|zij|ze)\b[^.!?\n]{0,20}$`,
  'iu',
);

/** Own introductions that name only a known given name: "I'm Anna", "ich bin Jonas", "je suis Claire", "soy Lucía", "ik ben Sanne". */
const SELF_CUE = /(?<![\p{L}])(?:i'm|i’m|i am|this is|it's|it’s|ich bin|hier ist|je suis|c'est|c’est|soy|aquí|ik ben|met|hier is)[ \u00a0]+/giu;

const RELATION_NOUNS = String.raw`(?:colleague|co-worker|coworker|boss|manager|supervisor|team lead|team leader|teammate|assistant|wife|husband|partner|friend|sister|brother|mother|mum|mom|dad|father|son|daughter|neighbour|neighbor|cousin|uncle|aunt|client|contact|account manager|doctor|dentist|landlord|landlady|roommate|flatmate|girlfriend|boyfriend|kollege|kollegin|chef|chefin|vorgesetzter|vorgesetzte|frau|mann|partnerin|freund|freundin|schwester|bruder|mutter|vater|sohn|tochter|nachbar|nachbarin|kunde|kundin|ansprechpartner|ansprechpartnerin|teamleiter|teamleiterin|mitarbeiter|mitarbeiterin|collègue|patron|patronne|cheffe|responsable|femme|mari|compagnon|compagne|ami|amie|sœur|soeur|frère|mère|père|fils|fille|voisin|voisine|cliente|conseiller|conseillère|interlocuteur|interlocutrice|compañero|compañera|colega|jefe|jefa|mujer|esposa|esposo|marido|pareja|amigo|amiga|hermana|hermano|madre|padre|hijo|hija|vecino|vecina|gerente|asesor|asesora|collega|baas|leidinggevende|vrouw|vriend|vriendin|zus|broer|moeder|vader|zoon|dochter|buurman|buurvrouw|klant|contactpersoon|teamleider)`;
const RELATION_CUE = new RegExp(
  String.raw`(?<![\p{L}])(?:my|our|his|her|their|the|a|mein|meine|meinem|meinen|meiner|unser|unsere|unserem|unseren|der|die|den|dem|mon|ma|notre|le|la|l'|l’|mi|nuestra|nuestro|el|mijn|onze|ons|de|het)[ \u00a0]+${RELATION_NOUNS}[ \u00a0]*,?[ \u00a0]+`,
  'giu',
);

/** Talking to, or hearing from, someone: the name follows. */
const CONTACT_CUE = new RegExp(
  String.raw`(?<![\p{L}])(?:spoke to|spoke with|talked to|talked with|chatted with|speaking to|speaking with|emailed|according to|thanks to|asked for|sprach mit|gesprochen mit|telefoniert mit|mit|parlé à|parlé avec|discuté avec|hablé con|hablado con|hablando con|sprak met|gesproken met|gebeld met|belde met|(?:llama|llame|llamé|llamar|llamad|pregunta|pregunte|pregunté|preguntar|dile|díselo|dio|di|dieron|escribe|escribí|escribir|avisa|avisé|avisar|conoce|conozco|saluda)(?:[ \u00a0]+(?:se|lo|la|le))?[ \u00a0]+a)[ \u00a0]+`,
  'giu',
);

/** After a name: "… from support", "… vom Support", "… du service client", "… de soporte", "… van de klantenservice". */
const TEAM_AFTER = new RegExp(
  String.raw`^[ \u00a0]+(?:from|at|of|in|vom|von der|von|aus dem|aus der|du|de la|de l'|de l’|de|del|van de|van het|van)[ \u00a0]+(?:the[ \u00a0]+|dem[ \u00a0]+|der[ \u00a0]+|la[ \u00a0]+|el[ \u00a0]+)?(?:support|sales|it|hr|billing|marketing|customer service|customer success|customer care|help ?desk|accounts|accounting|finance|onboarding|the team|your team|kundenservice|kundendienst|vertrieb|buchhaltung|service client|l'équipe|l’équipe|équipe|compta|comptabilité|ventes|soporte|atención al cliente|ventas|equipo|facturación|klantenservice|verkoop|boekhouding|administratie|\p{L}*(?:dienst|service|team|abteilung|support|desk|zentrale|hotline|afdeling|équipe|servicio|equipo|departamento))(?![\p{L}])`,
  'iu',
);

const APPOSITIVE = new RegExp(
  String.raw`(?<![\p{L}\p{M}'’-])(${CAP})(?=,[ \u00a0]+(?:the|our|my|your|a|an|l'|l’|la|le|el|los|las|de|het|der|die|das|unser|unsere|mein|meine|notre|mon|ma|nuestra|nuestro|mi|onze|mijn|un|une|una|een|ein|eine)[ \u00a0]*[\p{Ll}][\p{L}\p{M}'’-]*(?:[ \u00a0]+[\p{Ll}][\p{L}\p{M}'’-]*){0,3},)`,
  'gu',
);

/** Capitalised words that are never a person's name here: brands, products, companies, places, days, months, words capitalised by habit. */
const NEVER_NAMES = new Set(
  `
google microsoft excel word powerpoint outlook teams slack zoom jira confluence salesforce notion trello asana figma apple iphone ipad mac macbook android windows linux amazon aws azure spotify netflix whatsapp facebook instagram linkedin twitter tiktok youtube gmail dropbox hubspot shopify stripe paypal sap oracle airtable miro canva mailchimp zendesk intercom tesla uber lyft airbnb booking ikea lidl aldi rewe edeka carrefour mercadona zara hema albert heijn jumbo bol coolblue vodafone telekom orange movistar kpn ziggo ing rabobank abn amro santander bbva sparkasse commerzbank paribas revolut n26 adyen mollie klarna chrome firefox safari edge github gitlab bitbucket docker kubernetes python java javascript typescript sql postgres wordpress wix squarespace calendly typeform surveymonkey qualtrics tableau looker power bi sheets docs drive meet webex skype discord telegram signal chatgpt openai claude copilot gemini siri alexa kindle xbox playstation nintendo samsung huawei xiaomi sony philips bosch siemens nike adidas starbucks mcdonald's mcdonalds visa mastercard amex
monday tuesday wednesday thursday friday saturday sunday january february march april june july september october november december
montag dienstag mittwoch donnerstag freitag samstag sonntag januar februar märz juni juli oktober dezember
lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril mai juin juillet août septembre octobre novembre décembre
lunes martes miércoles jueves viernes sábado domingo enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre
maandag dinsdag woensdag donderdag vrijdag zaterdag zondag januari februari maart mei augustus
london paris berlin madrid amsterdam rotterdam utrecht eindhoven groningen leiden delft haarlem münchen munich hamburg köln cologne frankfurt stuttgart düsseldorf dresden leipzig wien vienna zürich zurich genf geneva barcelona sevilla seville valencia bilbao málaga lyon marseille toulouse nice lille bordeaux nantes strasbourg brussels bruxelles brussel antwerpen antwerp gent ghent new york boston chicago seattle texas california england britain germany deutschland france frankreich spain spanien españa nederland netherlands holland belgium belgië belgique europe europa america usa uk eu
english englisch anglais inglés engels dutch deutsch german allemand alemán duits french französisch français francés frans spanish spanisch espagnol español spaans
support kundenservice kundendienst hotline vertrieb team chef it hr sales marketing billing service services customer customers care helpdesk admin atención cliente clientes soporte servicio equipo équipe klantenservice afdeling abteilung
dear hi hello hey hallo liebe lieber sehr geehrte geehrter bonjour salut cher chère hola querida querido estimado estimada beste hoi
at in on with for by from to of about after before since until the a an this that these those my our your his her their and or because when if as what who where how why yesterday today tomorrow now just only honestly actually basically anyway please
bij op van met voor na naar door om over uit tot de het een die dat deze dit er hier daar toen nu ook maar en want dus als wat wie waar hoe waarom vroeger gisteren morgen vandaag soms altijd nooit eerst daarna
bei mit von vom zu zum zur aus auf an am im nach für über unter vor hinter neben zwischen durch gegen ohne um den dem des ein eine einen einem einer dann danach auch aber und oder denn weil wenn als ob dass wer wo wie warum seit bis heute gestern morgen jetzt nie immer oft mal schon noch nur leider unser unsere mein meine
au aux chez dans sur sous avec pour par sans avant après depuis pendant le la les un une des du ce cette ces mon ma mes son sa ses et ou mais donc car puis alors quand si comme que qui quoi où comment pourquoi hier demain maintenant toujours jamais souvent
en con por para sin desde hasta sobre entre tras ante bajo el los las unos unas del al y o pero porque cuando como quien donde ayer mañana hoy ahora siempre nunca luego después antes también
ok okay hi hello hey thanks yes no sure well so and but also then ich sie er wir ihr es das die der ja nein danke hallo je oui non merci bonjour sí gracias hola ja nee dank hoi god gott dieu dios
`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/**
 * Brands, shops and products named after a person ("Paul Smith", "Hugo Boss", "Albert Heijn"):
 * never a person's name, whole or in part.
 */
const PERSON_NAMED_BRANDS = new RegExp(
  String.raw`(?<![\p{L}])(?:Paul Smith|Hugo Boss|Louis Vuitton|Yves Saint[ -]Laurent|Ben (?:&|and|en|und|et|y) Jerry'?s|Ben & Jerry’s|Dr\.? Oetker|Dr\.? Martens|Dr\.? Pepper|Albert Heijn|Jan Linders|Calvin Klein|Tommy Hilfiger|Ralph Lauren|Giorgio Armani|Christian Dior|Coco Chanel|Jean Paul Gaultier|Marc Jacobs|Ted Baker|Karl Lagerfeld|Stella McCartney|Michael Kors|Kate Spade|Tom Ford|Ben Sherman|Massimo Dutti|Marks (?:&|and) Spencer|Victoria'?s Secret|Tim Hortons|Johnnie Walker|Jack Daniel'?s|Uncle Ben'?s|Mr\.? Clean|Mr\.? Proper|Peek (?:&|und) Cloppenburg|El Corte Inglés|Galeries Lafayette|Carl Zeiss|Robert Bosch|Anne Fontaine|Jean Louis David|Franck Provost|Roger & Gallet|Hema|Kruidvat|Rossmann|Leclerc|Auchan|Monoprix|Franprix|Fnac|Darty|Boulanger|Alcampo|Eroski|Mango|Bershka|Tesco|Sainsbury'?s|Waitrose|Asda|Morrisons|Primark|Boots|Currys|Argos|Decathlon|Décathlon|Zeeman|Action|Blokker|Gamma|Praxis|Karwei|Obi|Bauhaus|Hornbach|Saturn|MediaMarkt|Media Markt|Zalando|Tchibo)(?![\p{L}])`,
  'gu',
);

/** Places named after a saint or built on a name: "San Francisco", "Saint-Denis", "Sankt Peter", "Den Haag", "New York". */
const PLACE_NAMED_AFTER_SOMEONE = new RegExp(
  String.raw`(?<![\p{L}])(?:San|Santa|Santo|São|Saint|Sainte|St\.|Sankt|Sint|Los|Las|New|Fort|Port|Bad|Den|Mount|Mont|Lake|Cape|Ciudad|Villa)[ \u00a0-]${CAP}`,
  'gu',
);

/** A pet's name is not a person's: "our dog Max", "unser Hund Bruno", "mon chat Filou", "mi perro Toby", "onze kat Minoes". */
const PET_CUE = new RegExp(
  String.raw`(?<![\p{L}])(?:dog|cat|puppy|kitten|hamster|rabbit|bunny|horse|pony|parrot|pet|hund|hündin|katze|kater|hase|kaninchen|pferd|chien|chienne|chat|chatte|chaton|lapin|cheval|perro|perra|perrito|gato|gata|conejo|caballo|hond|hondje|kat|poes|kater|konijn|paard)[ \u00a0]*,?[ \u00a0]+(?=\p{Lu})`,
  'giu',
);

/** German nouns that often follow a given name in a sentence ("Anna Bescheid gesagt"): not a surname. */
const NOT_A_SURNAME =
  /(?:ung|heit|keit|schaft|tion|nis|tät|chen|lein|ismus|ment|ance|ence|age)$|^(?:Bescheid|Zeit|Problem|Probleme|Fehler|Hilfe|Frage|Fragen|Antwort|Termin|Daten|Bericht|Mail|Info|Ahnung|Lust|Recht|Angst|Glück|Spaß|Danke|Geld|Arbeit|Tag|Woche|Jahr|Hause|Nachricht|Zugang|Feedback|Idee|Tipp|Tipps|Ticket|Anruf)$/u;

const GREETING = /^(?:dear|hi|hello|hey|hallo|liebe|lieber|bonjour|salut|cher|chère|hola|querida|querido|estimado|estimada|beste|hoi)$/iu;
const RELATION_WORD = new RegExp(`^${RELATION_NOUNS}$`, 'iu');

function isNeverName(word: string): boolean {
  return NEVER_NAMES.has(word.toLocaleLowerCase()) || RELATION_WORD.test(word);
}

/** Whether the text at this offset starts a sentence (or the text): capitals there say nothing. */
function atSentenceStart(text: string, start: number): boolean {
  const before = text.slice(0, start).replace(/[\s"“”„«»'‘’([-]+$/u, '');
  return before === '' || /[.!?:;…\n]$/u.test(before);
}

interface Token {
  word: string;
  start: number;
  end: number;
}

/** The words of a capitalised run ("Jan van der Berg"): capitalised ones and particles, with offsets. */
function tokensOf(text: string, start: number, end: number): Token[] {
  return [...text.slice(start, end).matchAll(/[\p{L}\p{M}'’-]+/gu)].map((match) => ({
    word: match[0],
    start: start + match.index,
    end: start + match.index + match[0].length,
  }));
}

const CAPITALISED = new RegExp(`^${CAP}$`, 'u');
const PARTICLE_WORD = /^(?:van|von|der|den|de|del|della|la|le|los|las|da|di|du|dos|das|ten|ter|zu|y|e|el|al|ben|bin|abu|'t)$/iu;
const TITLE_WORD = new RegExp(`^${TITLE}\\.?$`, 'u');

/**
 * The name at the start of a capitalised run, as far as it goes: it stops before a word that is
 * never a name (a brand, a month) or, after the first word, one that is no surname; a particle
 * counts only between capitalised words. Null when the run does not start with a name.
 */
function nameIn(text: string, start: number, end: number): NameSpan | null {
  const all = tokensOf(text, start, end);
  // A title at the head of a run ("Herr Müller vom Support") stays outside the name.
  const titled = all.length > 1 && TITLE_WORD.test(all[0]!.word) ? 1 : 0;
  const tokens = all.slice(titled);
  let first = -1;
  let last = -1;
  for (let i = 0; i < tokens.length; i++) {
    const { word } = tokens[i]!;
    // Particles ("van der", "de la", "El", "Ben") belong to the name only with a capitalised word after them.
    if (PARTICLE_WORD.test(word) && i < tokens.length - 1) {
      if (first < 0) first = i;
      continue;
    }
    if (!CAPITALISED.test(word)) break;
    // A greeting or a brand before the name ("Hi Anna", "Excel Anna") is skipped; after it, it ends the name.
    if (GREETING.test(word) && first < 0) continue;
    if (isNeverName(word) || (last >= 0 && NOT_A_SURNAME.test(word))) break;
    if (first < 0) first = i;
    last = i;
  }
  if (last < 0) return null;
  return { start: tokens[first]!.start, end: tokens[last]!.end };
}

const RUN_AT = new RegExp(`^${NAME_AFTER_CUE}`, 'u');
const RUN_ANYWHERE = new RegExp(`(?<![\\p{L}\\p{M}'’-])${NAME_RUN}(?![\\p{L}\\p{M}])`, 'gu');

function runAt(text: string, at: number): NameSpan | null {
  const match = RUN_AT.exec(text.slice(at));
  return match ? nameIn(text, at, at + match[0].length) : null;
}

/** A lower-case given name right after an introduction: "my name is anna". */
function lowerCaseGivenNameAt(text: string, at: number): NameSpan | null {
  const match = /^[\p{Ll}\p{M}]+(?:-[\p{Ll}\p{M}]+)?/u.exec(text.slice(at));
  if (!match || givenNameSureness(match[0]) !== 'name') return null;
  return { start: at, end: at + match[0].length };
}

export function findNames(text: string): NameSpan[] {
  const found: NameSpan[] = [];
  const add = (span: NameSpan | null) => {
    if (span && span.end > span.start) found.push(span);
  };

  for (const match of text.matchAll(TITLE_CUE)) {
    const name = runAt(text, match.index + match[0].length);
    if (name) add({ start: match.index, end: name.end });
  }

  for (const match of text.matchAll(INTRODUCTION_CUE)) {
    const at = match.index + match[0].length;
    const cue = match[0].trim().toLocaleLowerCase();
    if (/^(?:named|called|name of|heißt|heisst|namens|genannt|s'appelle|s’appelle|appelée?|nommée?|se llama|llamad[oa]|heet|genaamd|noemt)/u.test(cue)) {
      const before = text.slice(Math.max(0, match.index - 40), match.index);
      if (THING_BEFORE_NAMING.test(before)) continue;
      // Without a person before it ("someone called", "un señor que se llama"), only a known given name is taken for one.
      const span = runAt(text, at);
      if (span && !PERSON_BEFORE_NAMING.test(before) && givenNameSureness(text.slice(span.start, span.end).split(/[ \u00a0]/u)[0]!) === null) continue;
    }
    add(
      runAt(text, at) ??
        (/^(?:my name|mein name|je m|mon nom|me llamo|mi nombre|ik heet|mijn naam|ich hei)/u.test(cue) ? lowerCaseGivenNameAt(text, at) : null),
    );
  }

  for (const match of text.matchAll(SELF_CUE)) {
    const span = runAt(text, match.index + match[0].length);
    if (span && givenNameSureness(text.slice(span.start, span.end).split(/[ \u00a0]/u)[0]!) !== null) add(span);
  }

  for (const match of text.matchAll(RELATION_CUE)) add(runAt(text, match.index + match[0].length));

  for (const match of text.matchAll(CONTACT_CUE)) {
    const span = runAt(text, match.index + match[0].length);
    // "mit" alone is too common a word: there, only a known given name counts.
    if (span && match[0].trim().toLocaleLowerCase() === 'mit' && givenNameSureness(text.slice(span.start, span.end).split(/[ \u00a0]/u)[0]!) === null) continue;
    add(span);
  }

  for (const match of text.matchAll(RUN_ANYWHERE)) {
    const span = nameIn(text, match.index, match.index + match[0].length);
    if (!span) continue;
    const words = text.slice(span.start, span.end).split(/[ \u00a0]+/u);
    const sureness = givenNameSureness(words[0]!);
    const withSurname = words.length > 1;
    const teamAfter = TEAM_AFTER.test(text.slice(span.end, span.end + 40));
    if (teamAfter) {
      add(span);
      continue;
    }
    if (sureness === 'name' || (sureness === 'homonym' && (withSurname || !atSentenceStart(text, span.start))) || (sureness === 'strict' && withSurname)) {
      add(span);
    } else if (words.length > 1) {
      // "… Dirk" after an unknown capitalised word: the known given name and what follows it.
      const inner = words.findIndex((word, index) => index > 0 && givenNameSureness(word) === 'name');
      if (inner > 0) add(nameIn(text, span.start + text.slice(span.start, span.end).indexOf(words[inner]!, words.slice(0, inner).join(' ').length), span.end));
    }
  }

  // "Nadia, l'aide-soignante, …", "Rocío, la auxiliar, …", "Tom, our account manager, …": a name set off by the role it has.
  for (const match of text.matchAll(APPOSITIVE)) add(nameIn(text, match.index, match.index + match[1]!.length));

  const blocked: NameSpan[] = [];
  for (const match of text.matchAll(PLACE_NAMED_AFTER_SOMEONE)) blocked.push({ start: match.index, end: match.index + match[0].length });
  for (const match of text.matchAll(PERSON_NAMED_BRANDS)) blocked.push({ start: match.index, end: match.index + match[0].length });
  for (const match of text.matchAll(PET_CUE)) {
    const pet = runAt(text, match.index + match[0].length);
    if (pet) blocked.push(pet);
  }
  const isBlocked = (span: NameSpan) => blocked.some((other) => span.start < other.end && other.start < span.end);
  const merged = mergeSpans(found.filter((span) => !isBlocked(span)));
  // A name's words that turn up alone elsewhere in the text ("… Schmidt said") are that name.
  const parts = new Set(
    merged
      .flatMap((span) => text.slice(span.start, span.end).split(/[ \u00a0]+/u))
      .filter((word) => CAPITALISED.test(word) && word.length >= 3 && !isNeverName(word)),
  );
  for (const part of parts) {
    const homonym = givenNameSureness(part) !== null && givenNameSureness(part) !== 'name';
    for (const match of text.matchAll(new RegExp(`(?<![\\p{L}\\p{M}'’-])${escapeRegExp(part)}(?![\\p{L}\\p{M}'’-])`, 'gu'))) {
      // "Will" is a name where "I asked Will", not in "Will it work?".
      if (homonym && atSentenceStart(text, match.index)) continue;
      if (!isBlocked({ start: match.index, end: match.index + part.length })) merged.push({ start: match.index, end: match.index + part.length });
    }
  }
  return mergeSpans(merged);
}

/** Overlapping or touching spans as one, in order. */
function mergeSpans(spans: NameSpan[]): NameSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: NameSpan[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}
