/**
 * Concept lexicons: what common multiple-choice options mean, per interview language, so an
 * answer can name an option without its words ("a coworker told me" for "Friend or colleague",
 * "googled it" for "Search engine"). Options are read with the same lexicon as answers: an
 * option evokes a concept by its own words, and an answer names the one option that evokes a
 * concept the answer evokes. Nothing here is written for one script: a concept is a family of
 * words a participant uses for an idea that survey options commonly name.
 *
 * - `words` and `members`: single words, compared by the language's stem, and as the head of a
 *   compound in German and Dutch ("Arbeitskollege" ends in "kollege"). A word evokes its concept
 *   as a synonym; members only in answers (see `ConceptEntry`).
 * - `phrases`: several words that say the idea without naming it ("told me about it", "looked it
 *   up"), written like the lexicons' phrases (`(a|b)` alternatives, trailing `?` optional). A
 *   phrase evokes its concept as a paraphrase, a weaker kind of evidence.
 */
export interface ConceptEntry {
  /** Words that name the concept: they evoke it in an answer and in an option ("colleague", "price", "social"). */
  words: readonly string[];
  /**
   * Members and cues of the concept: brands, kinds, people, evaluative words ("instagram",
   * "coworker", "cheap", "tablet"). They evoke the concept in an answer only; an option that is
   * itself a member ("Android", "Free", "Tablet") is named by its own words, never by another
   * member ("iphone" is not "Android", "paid" is not "Free", "mobile" is not "Tablet").
   */
  members: readonly string[];
  phrases: readonly string[];
}

export type ConceptLexicon = Record<string, ConceptEntry>;

const EN: ConceptLexicon = {
  transit: { words: ['transit'], members: ['bus', 'buses', 'train', 'trains', 'metro', 'subway', 'underground', 'tube', 'tram', 'rail', 'commuter'], phrases: ['public transport', 'public transportation'] },
  cycling: { words: ['bike', 'bicycle', 'cycling', 'cycle'], members: ['biking', 'cycled', 'ebike', 'e-bike', 'pedal'], phrases: ['by bike'] },
  car: { words: ['car', 'driving', 'drive'], members: ['drove', 'drives'], phrases: ['by car'] },
  walking: { words: ['walk', 'walking', 'foot'], members: ['walked', 'stroll'], phrases: ['on foot'] },
  cash: { words: ['cash'], members: ['notes', 'coins', 'banknotes', 'bills'], phrases: ['in cash'] },
  card: { words: ['card'], members: ['debit', 'credit', 'visa', 'mastercard', 'amex', 'contactless', 'tap'], phrases: ['credit card', 'debit card'] },
  payLater: { words: [], members: ['klarna', 'afterpay', 'clearpay', 'installments', 'instalments'], phrases: ['pay later', 'buy now pay later', 'pay (when|after) (it|the parcel|the package) (arrives|arrived|comes)'] },
  rent: { words: ['rent', 'renting', 'rental', 'rented'], members: ['tenant', 'landlord', 'lease', 'leasing'], phrases: [] },
  own: { words: ['own', 'owner', 'owned'], members: ['mortgage', 'bought', 'homeowner'], phrases: ['(we|i) (bought|own) (a|our|my)? (house|home|flat|apartment|place)', 'our own (house|home|place)', 'my own (house|home|place)'] },
  student: { words: ['student', 'studying', 'study'], members: ['uni', 'university', 'college', 'school', 'degree', 'phd', 'studies'], phrases: ['at (uni|university|college|school)'] },
  selfEmployed: { words: ['self-employed', 'freelance', 'freelancer', 'freelancing', 'independent'], members: ['contractor', 'consultant'], phrases: ['self employed', 'my own (business|company)', 'work for myself', 'on my own account'] },
  retired: { words: ['retired', 'retirement'], members: ['pension', 'pensioner', 'retiree'], phrases: [] },
  tv: { words: ['tv', 'television'], members: ['telly', 'smart tv'], phrases: ['(big|large) screen in the living room'] },
  people: {
    words: ['family', 'recommendation', 'recommended', 'referral', 'referred', 'word-of-mouth', 'friend', 'friends', 'colleague', 'coworker', 'co-worker', 'workmate', 'boss', 'manager', 'wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'brother', 'sister', 'mum', 'mom', 'mother', 'dad', 'father', 'parents', 'cousin', 'aunt', 'uncle', 'neighbour', 'neighbor', 'acquaintance', 'buddy', 'mate', 'roommate', 'flatmate', 'classmate', 'teammate', 'peer', 'peers', 'relative', 'son', 'daughter', 'kids', 'someone', 'somebody'], members: [],
    phrases: [
      '(someone|somebody|people|a person) (i|we) know', 'word of mouth', '(told|tell|showed|show) (me|us)',
      'heard (about|of)? (it|you)? from', '(recommended|suggested|mentioned) (it)? (to)? (me|us)', 'passed (it)? on',
      'through (a|my)? (contact|network)',
    ],
  },
  search: {
    words: ['search', 'searched', 'searching'], members: ['google', 'googled', 'googling', 'bing', 'duckduckgo', 'yahoo', 'ecosia'],
    phrases: ['looked (it|you|them)? up', 'look (it|you|them)? up', 'search engine', 'typed (it)? into', 'searched (for|online)'],
  },
  social: {
    words: ['social'], members: ['instagram', 'insta', 'tiktok', 'facebook', 'fb', 'twitter', 'tweet', 'linkedin', 'youtube', 'reddit', 'snapchat', 'pinterest', 'mastodon', 'threads', 'influencer', 'youtuber', 'reel', 'reels', 'bluesky'],
    phrases: ['social (media|network|networks)', 'a (post|video) (on|from)'],
  },
  ads: {
    words: ['ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertising', 'commercial', 'commercials', 'billboard', 'sponsored', 'banner', 'promo', 'promoted'], members: [],
    phrases: ['(saw|seen) (an|a)? (ad|advert|commercial)'],
  },
  email: {
    words: ['email', 'e-mail', 'emails', 'newsletter', 'mail', 'mailing', 'inbox', 'mailbox'], members: [],
    phrases: ['mailing list'],
  },
  store: {
    words: ['appstore', 'playstore'], members: [],
    phrases: ['app store', 'play store', 'google play', '(browsing|browsed) (the)? (store|apps)'],
  },
  press: {
    words: ['blog', 'article', 'articles', 'news', 'press', 'magazine', 'podcast', 'newspaper', 'journalist', 'review', 'reviews'], members: [],
    phrases: ['read (about|an article)'],
  },
  events: {
    words: ['conference', 'event', 'meetup', 'webinar', 'expo', 'workshop', 'talk', 'booth'], members: [],
    phrases: ['trade (show|fair)'],
  },
  broadcast: { words: ['radio'], members: [], phrases: [] },
  price: {
    words: ['price', 'prices', 'pricing', 'cost', 'costs', 'money', 'budget', 'fee', 'fees', 'subscription'], members: ['cheap', 'cheaper', 'expensive', 'affordable', 'discount', 'free', 'pay', 'paid', 'paying', 'costly', 'pricey', 'bucks', 'dollars', 'euros'],
    phrases: ['(too|so) much', 'saves? (me)? money'],
  },
  speed: {
    words: ['speed', 'loading', 'performance'], members: ['fast', 'faster', 'quick', 'quicker', 'quickly', 'speedy', 'slow', 'slower', 'slowness', 'lag', 'laggy', 'snappy', 'instant'],
    phrases: ['(takes|took) (too|so)? (long|ages|forever)', 'in no time', 'saves? (me)? time'],
  },
  ease: {
    words: ['simplicity', 'ease', 'user-friendly', 'usability', 'convenience'], members: ['easy', 'easier', 'simple', 'simpler', 'intuitive', 'straightforward', 'convenient', 'effortless', 'complicated', 'confusing', 'usable', 'handy'],
    phrases: ['easy to use', 'user friendly', 'no learning curve', '(figure|figured) (it)? out'],
  },
  support: {
    words: ['support', 'helpdesk', 'help', 'agent', 'agents', 'staff', 'assistance'], members: [],
    phrases: ['customer (service|care|support)', 'service (team|desk)', '(they|someone) helped (me)?'],
  },
  features: { words: ['feature', 'features', 'functionality', 'functions', 'capabilities', 'integrations', 'integration'], members: [], phrases: [] },
  design: { words: ['design', 'interface', 'ui', 'layout', 'aesthetic', 'aesthetics'], members: ['beautiful'], phrases: ['looks? (good|nice|great)'] },
  reliability: { words: ['reliability', 'stability', 'downtime', 'outage', 'outages'], members: ['reliable', 'stable', 'crash', 'crashes', 'crashed', 'bug', 'bugs', 'buggy'], phrases: ['(always|just) works'] },
  privacy: { words: ['privacy', 'security', 'safety', 'gdpr', 'encryption'], members: ['secure', 'safe', 'encrypted'], phrases: [] },
  phone: { words: ['phone', 'call', 'called', 'calling', 'telephone', 'rang', 'ring'], members: [], phrases: ['on the phone'] },
  chat: { words: ['chat', 'chatting', 'chatbot'], members: [], phrases: ['live chat'] },
  messaging: { words: ['messaging', 'sms', 'texting'], members: ['whatsapp', 'messenger', 'dm', 'telegram'], phrases: ['text message', 'texted (me|them)?'] },
  inPerson: { words: ['in-person', 'visit', 'visited', 'branch', 'counter', 'face-to-face'], members: [], phrases: ['in person', 'face to face', '(went|go|going) (to|into) (the|a)? (store|shop|office|branch)'] },
  computer: { words: ['computer', 'web'], members: ['laptop', 'desktop', 'pc', 'mac', 'macbook', 'windows', 'browser', 'website'], phrases: [] },
  mobile: { words: ['mobile', 'app'], members: ['smartphone', 'iphone', 'android', 'tablet', 'ipad'], phrases: ['on my phone'] },
  work: { words: ['work', 'job', 'office', 'business', 'professional', 'professionally', 'employer', 'company', 'client', 'clients', 'workplace'], members: [], phrases: ['for work'] },
  personal: { words: ['personal', 'personally', 'private', 'home', 'hobby', 'leisure', 'myself'], members: [], phrases: ['(for|just for) (fun|me|myself)', 'my own'] },
  morning: { words: ['morning', 'mornings'], members: ['breakfast', 'sunrise', 'dawn'], phrases: ['(first thing|early) (in the morning)?', 'before (work|lunch|noon)', 'when i wake up'] },
  afternoon: { words: ['afternoon', 'afternoons'], members: ['lunch', 'lunchtime', 'midday', 'noon'], phrases: ['after lunch'] },
  evening: { words: ['evening', 'evenings'], members: ['dinner', 'bedtime', 'late'], phrases: ['after (work|dinner)', 'before (bed|sleep)', 'after dark'] },
  daily: { words: ['daily', 'everyday'], members: [], phrases: ['(every|each) (single)? day', 'every (morning|evening|night)', 'all the time', 'day in day out', 'several times a day'] },
  weekly: { words: ['weekly'], members: [], phrases: ['(every|each|once a|a couple times a|a few times a|several times a) week'] },
  monthly: { words: ['monthly'], members: [], phrases: ['(every|each|once a) month'] },
  rarely: { words: ['rarely', 'seldom', 'occasionally', 'sporadically', 'hardly'], members: [], phrases: ['hardly ever', 'once in a while', 'every now and then', 'now and then', 'not (very)? often'] },
  other: { words: ['other'], members: [], phrases: ['something else', 'something different'] },
};

const NL: ConceptLexicon = {
  transit: { words: ['ov'], members: ['bus', 'trein', 'metro', 'tram', 'ns'], phrases: ['openbaar vervoer'] },
  cycling: { words: ['fiets', 'fietsen'], members: ['fietste', 'e-bike', 'fietsend'], phrases: ['met de fiets', 'op de fiets'] },
  car: { words: ['auto', 'rijden'], members: ['reed', 'wagen'], phrases: ['met de auto'] },
  walking: { words: ['lopen', 'lopend', 'voet'], members: ['wandelen', 'liep'], phrases: ['te voet'] },
  cash: { words: ['contant', 'contanten', 'cash'], members: ['briefjes', 'munten', 'muntjes'], phrases: [] },
  card: { words: ['pin', 'pinnen', 'kaart', 'pinpas'], members: ['creditcard', 'bankpas', 'contactloos', 'gepind'], phrases: [] },
  ideal: { words: ['ideal'], members: ['bankapp'], phrases: ['via (mijn|de) bank'] },
  payLater: { words: ['achteraf'], members: ['klarna', 'afterpay', 'riverty'], phrases: ['achteraf betalen', 'betaal (ik)? als het (pakket)? (binnen|binnen is|bezorgd is)'] },
  rent: { words: ['huur', 'huren', 'huurhuis', 'huurwoning'], members: ['huurder', 'verhuurder', 'woningcorporatie'], phrases: [] },
  own: { words: ['koop', 'koophuis', 'koopwoning', 'eigenaar'], members: ['hypotheek', 'gekocht'], phrases: ['(ons|mijn) eigen huis', 'eigen woning'] },
  student: { words: ['student', 'studeren', 'studie'], members: ['universiteit', 'uni', 'hogeschool', 'hbo', 'mbo', 'school'], phrases: [] },
  selfEmployed: { words: ['zzp', 'zzper', "zzp'er", 'zelfstandige', 'zelfstandig', 'freelancer', 'freelance'], members: ['ondernemer'], phrases: ['voor mezelf', 'eigen (bedrijf|zaak)'] },
  retired: { words: ['gepensioneerd', 'pensioen'], members: ['aow'], phrases: [] },
  tv: { words: ['tv', 'televisie'], members: [], phrases: ['(grote)? scherm in de woonkamer'] },
  people: {
    words: ["collega's", 'familie', 'aanbeveling', 'aanbevolen', 'aanrader', 'aangeraden', 'getipt', 'tip', 'vriend', 'vriendin', 'vrienden', 'collega', 'collegas', 'baas', 'leidinggevende', 'manager', 'vrouw', 'partner', 'broer', 'zus', 'zuster', 'moeder', 'vader', 'ouders', 'mama', 'papa', 'neef', 'nicht', 'oom', 'tante', 'buurman', 'buurvrouw', 'buren', 'kennis', 'kennissen', 'maat', 'huisgenoot', 'klasgenoot', 'iemand', 'zoon', 'dochter', 'vriendje', 'vriendinnetje'], members: [],
    phrases: [
      'via via', 'mond tot mond', '(heeft|had|hebben) (het)? (me|mij|ons) (verteld|aangeraden|getipt|laten zien)',
      '(vertelde|vertelden|liet|raadde) (het)? (me|mij|ons)', 'hoorde (het)? van', 'gehoord van', 'van horen zeggen',
    ],
  },
  search: {
    words: ['zoeken', 'gezocht', 'zocht', 'zoekmachine', 'opgezocht', 'zoekopdracht'], members: ['google', 'gegoogeld', 'gegoogled', 'googelen', 'googlen', 'googelde', 'bing'],
    phrases: ['(zocht|zoek|zoeken) (het)? op', 'op internet gezocht', 'via google'],
  },
  social: {
    words: ['sociale', 'socials'], members: ['instagram', 'insta', 'tiktok', 'facebook', 'twitter', 'linkedin', 'youtube', 'reddit', 'snapchat', 'pinterest', 'influencer'],
    phrases: ['sociale media', 'social media'],
  },
  ads: { words: ['advertentie', 'advertenties', 'reclame', 'reclames', 'gesponsord', 'banner', 'reclamebord', 'commercial', 'advertentie', 'ad', 'ads'], members: [], phrases: [] },
  email: { words: ['e-mail', 'email', 'mail', 'mailtje', 'nieuwsbrief', 'mailing', 'inbox'], members: [], phrases: [] },
  store: { words: ['appstore', 'playstore'], members: [], phrases: ['app store', 'play store', 'google play'] },
  press: { words: ['blog', 'artikel', 'nieuws', 'krant', 'tijdschrift', 'podcast', 'pers', 'recensie', 'review', 'reviews'], members: [], phrases: [] },
  events: { words: ['congres', 'evenement', 'beurs', 'meetup', 'webinar', 'workshop', 'conferentie', 'lezing'], members: [], phrases: [] },
  broadcast: { words: ['radio'], members: [], phrases: [] },
  price: {
    words: ['prijs', 'prijzen', 'kosten', 'kost', 'geld', 'budget', 'abonnement', 'korting', 'euro'], members: ['goedkoop', 'goedkoper', 'duur', 'betaalbaar', 'gratis', 'betalen', 'betaald', 'prijzig'],
    phrases: ['(te|zo) veel geld', 'waar voor (je|mijn) geld'],
  },
  speed: { words: ['snelheid', 'laden', 'laadtijd', 'prestaties'], members: ['snel', 'sneller', 'traag', 'trager', 'langzaam', 'vlot', 'rap'], phrases: ['duurt (te|zo)? lang', 'in een mum van tijd'] },
  ease: { words: ['gebruiksvriendelijk', 'gemak', 'gebruiksgemak'], members: ['makkelijk', 'gemakkelijk', 'eenvoudig', 'simpel', 'intuitief', 'overzichtelijk', 'ingewikkeld', 'handig'], phrases: ['makkelijk te gebruiken'] },
  support: { words: ['klantenservice', 'ondersteuning', 'helpdesk', 'hulp', 'support', 'servicedesk', 'medewerker', 'medewerkers'], members: [], phrases: ['(ze|iemand) (hielp|hielpen|heeft geholpen)'] },
  features: { words: ['functie', 'functies', 'functionaliteit', 'functionaliteiten', 'mogelijkheden', 'features', 'integraties'], members: [], phrases: [] },
  design: { words: ['ontwerp', 'design', 'uiterlijk', 'vormgeving', 'interface', 'layout', 'uitstraling'], members: ['mooi'], phrases: ['ziet er (goed|mooi) uit'] },
  reliability: { words: ['betrouwbaarheid', 'storing', 'storingen', 'vastloopt'], members: ['betrouwbaar', 'stabiel', 'crash', 'crasht', 'bug', 'bugs'], phrases: ['werkt (altijd|gewoon)'] },
  privacy: { words: ['privacy', 'veiligheid', 'beveiliging', 'avg', 'versleuteling'], members: ['veilig'], phrases: [] },
  phone: { words: ['telefonisch', 'telefoontje', 'telefoon', 'bellen', 'gebeld', 'belde'], members: [], phrases: [] },
  chat: { words: ['chat', 'chatten', 'chatbot'], members: [], phrases: [] },
  messaging: { words: ['sms', 'sms\'je', 'berichtje', 'appen', 'geappt'], members: ['whatsapp', 'telegram'], phrases: [] },
  inPerson: { words: ['persoonlijk', 'langsgaan', 'balie', 'filiaal', 'winkel'], members: [], phrases: ['(ging|ga|gaan) langs', 'in de winkel', 'face to face'] },
  computer: { words: ['computer', 'web', 'webversie'], members: ['laptop', 'desktop', 'pc', 'mac', 'browser', 'website'], phrases: [] },
  mobile: { words: ['mobiel', 'app'], members: ['smartphone', 'iphone', 'android', 'tablet', 'ipad', 'gsm'], phrases: ['op (mijn|m\'n) telefoon'] },
  work: { words: ['werk', 'baan', 'kantoor', 'zakelijk', 'professioneel', 'werkgever', 'bedrijf', 'klanten', 'beroepsmatig'], members: [], phrases: ['voor (mijn)? werk'] },
  personal: { words: ['prive', 'persoonlijk', 'thuis', 'hobby', 'vrije'], members: [], phrases: ['voor (mezelf|mijzelf|de lol)', 'in mijn vrije tijd'] },
  morning: { words: ['ochtend', 'ochtends', "'s ochtends", 'morgens'], members: ['ontbijt'], phrases: ['voor (het werk|de lunch)', 'als ik wakker word'] },
  afternoon: { words: ['middag', 'middags', 'lunchpauze'], members: ['lunch'], phrases: ['na de lunch'] },
  evening: { words: ['avond', 'avonds'], members: ['diner'], phrases: ['na (het werk|het eten)', 'voor het slapen', 'voor het slapengaan'] },
  daily: { words: ['dagelijks'], members: [], phrases: ['(elke|iedere) (dag|ochtend|avond)', 'de hele tijd', 'meerdere keren per dag'] },
  weekly: { words: ['wekelijks'], members: [], phrases: ['(elke|iedere) week', '(een|1|paar) keer per week'] },
  monthly: { words: ['maandelijks'], members: [], phrases: ['(elke|iedere) maand', '(een|1) keer per maand'] },
  rarely: { words: ['zelden', 'soms', 'sporadisch', 'nauwelijks'], members: [], phrases: ['af en toe', 'heel soms', 'niet (zo|heel)? vaak', 'bijna nooit'] },
  other: { words: ['anders', 'overig', 'overige', 'andere'], members: [], phrases: ['iets anders'] },
};

const DE: ConceptLexicon = {
  transit: { words: ['öpnv', 'nahverkehr'], members: ['bus', 'bahn', 'zug', 's-bahn', 'u-bahn', 'straßenbahn', 'tram'], phrases: ['öffentlichen verkehrsmitteln', 'öffentliche verkehrsmittel', 'mit den öffis'] },
  cycling: { words: ['fahrrad', 'rad'], members: ['radle', 'radeln', 'radfahren', 'e-bike', 'velo'], phrases: ['mit dem (rad|fahrrad)'] },
  car: { words: ['auto', 'pkw', 'wagen'], members: ['fahre', 'fuhr'], phrases: ['mit dem auto'] },
  walking: { words: ['fuß', 'zu fuß', 'laufen'], members: ['gehe', 'spaziere'], phrases: ['zu fuß'] },
  cash: { words: ['bar', 'bargeld'], members: ['scheine', 'münzen', 'kleingeld'], phrases: [] },
  card: { words: ['karte', 'girokarte'], members: ['ec-karte', 'ec', 'kreditkarte', 'debitkarte', 'kontaktlos', 'maestro', 'visa'], phrases: [] },
  payLater: { words: ['rechnung'], members: ['klarna', 'ratenzahlung'], phrases: ['auf rechnung', 'später bezahlen'] },
  rent: { words: ['miete', 'mieten', 'mietwohnung'], members: ['mieter', 'vermieter', 'gemietet'], phrases: ['zur miete'] },
  own: { words: ['eigentum', 'eigentümer', 'eigenheim'], members: ['gekauft', 'hypothek', 'kredit'], phrases: ['(unser|mein|ein) eigenes haus', 'eigene wohnung'] },
  student: { words: ['student', 'studentin', 'studium', 'studiere'], members: ['uni', 'universität', 'hochschule', 'schule'], phrases: [] },
  selfEmployed: { words: ['selbstständig', 'selbständig', 'freiberuflich', 'freelancer'], members: ['unternehmer'], phrases: ['eigene firma'] },
  retired: { words: ['rente', 'rentner', 'rentnerin', 'ruhestand', 'pension'], members: ['pensioniert'], phrases: [] },
  insurancePublic: { words: ['gesetzlich', 'gesetzliche'], members: ['aok', 'tk', 'barmer', 'dak', 'ikk', 'bkk', 'kasse', 'krankenkasse'], phrases: [] },
  insurancePrivate: { words: ['privat', 'private'], members: ['pkv', 'debeka', 'allianz'], phrases: ['privat versichert'] },
  tv: { words: ['fernseher', 'fernsehen', 'tv'], members: ['glotze'], phrases: ['(großen)? bildschirm im wohnzimmer'] },
  people: {
    words: ['familie', 'empfehlung', 'empfohlen', 'weiterempfohlen', 'mundpropaganda', 'freund', 'freundin', 'freunde', 'freunden', 'kollege', 'kollegin', 'kollegen', 'arbeitskollege', 'chef', 'chefin', 'vorgesetzter', 'vorgesetzte', 'frau', 'mann', 'partner', 'partnerin', 'bruder', 'schwester', 'mutter', 'vater', 'eltern', 'mama', 'papa', 'cousin', 'cousine', 'onkel', 'tante', 'nachbar', 'nachbarin', 'bekannte', 'bekannter', 'bekannten', 'kumpel', 'mitbewohner', 'jemand', 'sohn', 'tochter'], members: [],
    phrases: [
      '(hat|haben) (es)? (mir|uns) (davon)? (erzählt|empfohlen|gezeigt|gesagt)', '(erzählte|empfahl|zeigte) (es)? (mir|uns)',
      '(von|über) (einem|einer|meinem|meiner)? (freund|freundin|kollegen|kollegin|bekannten) gehört', 'gehört von', 'hörte davon',
    ],
  },
  search: {
    words: ['suche', 'gesucht', 'suchte', 'suchmaschine', 'recherchiert', 'recherche', 'websuche'], members: ['google', 'gegoogelt', 'googeln', 'gegooglet', 'googlen', 'bing'],
    phrases: ['im internet (gesucht|gefunden)', 'über google', 'nachgeschaut', 'nachgesehen'],
  },
  social: {
    words: ['sozialen', 'soziale'], members: ['instagram', 'insta', 'tiktok', 'facebook', 'twitter', 'linkedin', 'youtube', 'reddit', 'snapchat', 'pinterest', 'influencer', 'xing'],
    phrases: ['(soziale|sozialen) medien', 'social media', 'sozialen netzwerken'],
  },
  ads: { words: ['werbung', 'anzeige', 'anzeigen', 'reklame', 'gesponsert', 'werbeanzeige', 'werbebanner', 'banner', 'plakat', 'werbespot', 'inserat'], members: [], phrases: [] },
  email: { words: ['e-mail', 'email', 'mail', 'newsletter', 'rundmail', 'postfach', 'mails'], members: [], phrases: [] },
  store: { words: ['appstore', 'playstore'], members: [], phrases: ['app store', 'play store', 'google play'] },
  press: { words: ['blog', 'artikel', 'nachrichten', 'zeitung', 'zeitschrift', 'magazin', 'podcast', 'presse', 'testbericht', 'bewertung', 'bewertungen'], members: [], phrases: [] },
  events: { words: ['konferenz', 'veranstaltung', 'messe', 'meetup', 'webinar', 'workshop', 'vortrag', 'kongress', 'event'], members: [], phrases: [] },
  broadcast: { words: ['radio'], members: [], phrases: [] },
  price: {
    words: ['preis', 'preise', 'kosten', 'kostet', 'geld', 'budget', 'abo', 'abonnement', 'gebühr', 'gebühren', 'rabatt', 'euro', 'preis-leistung'], members: ['günstig', 'günstiger', 'billig', 'billiger', 'teuer', 'preiswert', 'kostenlos', 'gratis', 'bezahlen'],
    phrases: ['(zu|so) viel geld', 'preis leistung'],
  },
  speed: { words: ['geschwindigkeit', 'tempo', 'ladezeit', 'ladezeiten', 'leistung', 'performance'], members: ['schnell', 'schneller', 'langsam', 'langsamer', 'flott', 'zügig'], phrases: ['dauert (zu|so)? lange'] },
  ease: { words: ['bedienung', 'bedienbar', 'handhabung'], members: ['einfach', 'einfacher', 'leicht', 'benutzerfreundlich', 'intuitiv', 'unkompliziert', 'kompliziert', 'verständlich', 'übersichtlich', 'praktisch'], phrases: ['leicht zu bedienen', 'einfach zu (bedienen|nutzen)'] },
  support: { words: ['support', 'kundendienst', 'kundenservice', 'hilfe', 'helpdesk', 'service', 'kundensupport', 'betreuung', 'mitarbeiter'], members: [], phrases: ['(sie|jemand) (hat|haben) (mir)? geholfen'] },
  features: { words: ['funktion', 'funktionen', 'funktionalität', 'funktionsumfang', 'features', 'möglichkeiten', 'integrationen'], members: [], phrases: [] },
  design: { words: ['design', 'aussehen', 'optik', 'oberfläche', 'gestaltung', 'layout', 'ästhetik'], members: ['schön'], phrases: ['sieht (gut|schön) aus'] },
  reliability: { words: ['zuverlässigkeit', 'stabilität', 'fehler', 'bugs', 'ausfall', 'ausfälle'], members: ['zuverlässig', 'stabil', 'absturz', 'abstürze', 'stürzt'], phrases: ['funktioniert (immer|einfach)'] },
  privacy: { words: ['datenschutz', 'privatsphäre', 'sicherheit', 'dsgvo', 'verschlüsselung'], members: ['verschlüsselt'], phrases: [] },
  phone: { words: ['telefonisch', 'telefoniert', 'telefon', 'anruf', 'angerufen', 'anrufen'], members: [], phrases: [] },
  chat: { words: ['chat', 'chatten', 'chatbot'], members: [], phrases: [] },
  messaging: { words: ['sms', 'kurznachricht'], members: ['whatsapp', 'messenger', 'telegram'], phrases: [] },
  inPerson: { words: ['persönlich', 'vorbeigegangen', 'filiale', 'schalter', 'geschäft'], members: [], phrases: ['vor ort', 'im (laden|geschäft)'] },
  computer: { words: ['computer', 'web'], members: ['laptop', 'desktop', 'pc', 'rechner', 'mac', 'browser', 'webseite', 'website'], phrases: [] },
  mobile: { words: ['mobil', 'mobile', 'app'], members: ['handy', 'smartphone', 'iphone', 'android', 'tablet', 'ipad'], phrases: [] },
  work: { words: ['arbeit', 'beruf', 'beruflich', 'büro', 'job', 'geschäftlich', 'arbeitgeber', 'firma', 'unternehmen', 'kunden'], members: [], phrases: ['für (die)? arbeit'] },
  personal: { words: ['privat', 'persönlich', 'zuhause', 'hause', 'hobby', 'freizeit'], members: [], phrases: ['für mich (selbst)?', 'in meiner freizeit'] },
  morning: { words: ['morgen', 'morgens', 'vormittag', 'vormittags'], members: ['früh', 'frühstück'], phrases: ['vor (der arbeit|dem mittagessen)', 'nach dem aufstehen'] },
  afternoon: { words: ['nachmittag', 'nachmittags', 'mittag', 'mittags', 'mittagspause'], members: [], phrases: ['nach dem mittagessen'] },
  evening: { words: ['abend', 'abends', 'feierabend'], members: ['spät', 'abendessen'], phrases: ['nach (der arbeit|dem abendessen)', 'vor dem (schlafen|schlafengehen)'] },
  daily: { words: ['täglich', 'tagtäglich'], members: [], phrases: ['jeden (tag|morgen|abend)', 'die ganze zeit', 'mehrmals am tag'] },
  weekly: { words: ['wöchentlich'], members: [], phrases: ['jede woche', '(einmal|ein paar mal|mehrmals) (die|pro) woche'] },
  monthly: { words: ['monatlich'], members: [], phrases: ['jeden monat', 'einmal (im|pro) monat'] },
  rarely: { words: ['selten', 'gelegentlich', 'manchmal', 'kaum'], members: [], phrases: ['ab und zu', 'hin und wieder', 'nicht (so)? oft', 'fast nie'] },
  other: { words: ['sonstiges', 'sonstige', 'anderes'], members: [], phrases: ['etwas anderes'] },
};

const FR: ConceptLexicon = {
  transit: { words: ['transports', 'transport'], members: ['bus', 'train', 'métro', 'metro', 'rer', 'tram', 'tramway', 'ter'], phrases: ['transports en commun'] },
  cycling: { words: ['vélo', 'velo', 'bicyclette'], members: ['vélib', 'pédale'], phrases: ['à vélo', 'en vélo'] },
  car: { words: ['voiture', 'auto'], members: ['conduis', 'bagnole'], phrases: ['en voiture'] },
  walking: { words: ['pied', 'marche', 'marcher'], members: [], phrases: ['à pied'] },
  cash: { words: ['espèces', 'liquide', 'cash'], members: ['billets', 'pièces', 'monnaie'], phrases: ['en liquide', 'en espèces'] },
  card: { words: ['carte'], members: ['cb', 'visa', 'mastercard', 'sans contact'], phrases: ['carte bancaire', 'carte bleue'] },
  rent: { words: ['locataire', 'location', 'loue', 'louer'], members: ['loyer', 'propriétaire bailleur'], phrases: ['en location'] },
  own: { words: ['propriétaire'], members: ['acheté', 'crédit immobilier', 'prêt'], phrases: ['(on|nous|j) (a|avons|ai) acheté'] },
  student: { words: ['étudiant', 'étudiante', 'études'], members: ['fac', 'université', 'école', 'lycée'], phrases: [] },
  selfEmployed: { words: ['indépendant', 'indépendante', 'freelance', 'auto-entrepreneur', 'autoentrepreneur'], members: ['artisan', 'plombier', 'libéral'], phrases: ['à mon compte', 'à son compte', 'ma propre (entreprise|boîte)'] },
  retired: { words: ['retraité', 'retraitée', 'retraite'], members: ['pension'], phrases: ['à la retraite'] },
  online: { words: ['internet', 'en ligne', 'site'], members: ['doctolib', 'appli', 'application'], phrases: ['sur (internet|le site|l appli)'] },
  tv: { words: ['télé', 'télévision', 'tv'], members: [], phrases: [] },
  people: {
    words: ['famille', 'recommandation', 'recommandé', 'bouche-à-oreille', "quelqu'un", 'entourage', 'ami', 'amie', 'amis', 'amies', 'copain', 'copine', 'pote', 'potes', 'collègue', 'collègues', 'patron', 'patronne', 'chef', 'manager', 'femme', 'mari', 'conjoint', 'partenaire', 'frère', 'sœur', 'soeur', 'mère', 'père', 'parents', 'maman', 'papa', 'cousin', 'cousine', 'oncle', 'tante', 'voisin', 'voisine', 'connaissance', 'connaissances', 'quelqu', 'fils', 'fille', 'proche', 'proches'], members: [],
    phrases: [
      'bouche (a|à) oreille', "(m|nous) (en)? (a|ont) (parlé|conseillé|recommandé|montré)", "(on)? (m|nous) en a parlé",
      "(m|nous) (l)? (a|ont) (conseillé|recommandé|montré)", 'par (un|une|des)? (ami|amie|amis|collègue|connaissance)',
    ],
  },
  search: {
    words: ['recherche', 'recherché', 'cherché', 'chercher', 'cherchant'], members: ['google', 'googlé', 'googler', 'bing', 'qwant', 'ecosia'],
    phrases: ['moteur de recherche', 'sur (internet|le web) en cherchant', 'en cherchant'],
  },
  social: {
    words: ['sociaux'], members: ['instagram', 'insta', 'tiktok', 'facebook', 'twitter', 'linkedin', 'youtube', 'reddit', 'snapchat', 'pinterest', 'influenceur', 'influenceuse'],
    phrases: ['réseaux sociaux', 'social media'],
  },
  ads: { words: ['publicité', 'publicités', 'pub', 'pubs', 'annonce', 'annonces', 'sponsorisé', 'sponsorisée', 'bannière', 'affiche', 'spot', 'réclame'], members: [], phrases: [] },
  email: { words: ['e-mail', 'email', 'mail', 'mails', 'courriel', 'newsletter', 'infolettre', 'messagerie'], members: [], phrases: ["lettre d (information|infos)"] },
  store: { words: ['appstore', 'playstore'], members: [], phrases: ['app store', 'play store', 'google play'] },
  press: { words: ['blog', 'article', 'articles', 'actualités', 'presse', 'journal', 'magazine', 'podcast', 'critique'], members: [], phrases: [] },
  events: { words: ['conférence', 'événement', 'évènement', 'salon', 'meetup', 'webinaire', 'webinar', 'atelier', 'congrès'], members: [], phrases: [] },
  broadcast: { words: ['radio'], members: [], phrases: [] },
  price: {
    words: ['prix', 'coût', 'coûte', 'tarif', 'tarifs', 'argent', 'budget', 'abonnement', 'réduction', 'euros'], members: ['cher', 'chère', 'abordable', 'gratuit', 'gratuite', 'payer', 'payant', 'économique'],
    phrases: ['pas cher', 'bon marché', 'rapport qualité prix', 'qualité prix'],
  },
  speed: { words: ['rapidité', 'vitesse', 'lenteur', 'chargement', 'performance', 'performances'], members: ['rapide', 'rapidement', 'lent', 'lente', 'vite'], phrases: ['(prend|met) (trop)? (de temps|longtemps)'] },
  ease: { words: ['simplicité', 'facilité', 'ergonomie'], members: ['facile', 'facilement', 'simple', 'intuitif', 'intuitive', 'ergonomique', 'compliqué', 'pratique', 'convivial'], phrases: ["facile (à|a) utiliser", "prise en main"] },
  support: { words: ['support', 'assistance', 'aide', 'sav', 'conseiller', 'conseillère', 'hotline'], members: [], phrases: ['service (client|clientèle)', '(ils|quelqu un) (m)? (a|ont) aidé'] },
  features: { words: ['fonctionnalité', 'fonctionnalités', 'fonction', 'fonctions', 'possibilités', 'intégrations'], members: [], phrases: [] },
  design: { words: ['design', 'apparence', 'esthétique', 'interface', 'look', 'graphisme'], members: ['beau', 'belle'], phrases: [] },
  reliability: { words: ['fiabilité', 'stabilité', 'panne', 'pannes'], members: ['fiable', 'stable', 'plantage', 'plante', 'bug', 'bugs', 'bogue'], phrases: ['marche (toujours|bien)'] },
  privacy: { words: ['confidentialité', 'sécurité', 'sécurisé', 'rgpd', 'chiffrement'], members: ['chiffré'], phrases: ['vie privée'] },
  phone: { words: ['téléphonique', 'téléphone', 'appel', 'appelé', 'appeler', 'téléphoné'], members: [], phrases: ['par téléphone'] },
  chat: { words: ['chat', 'tchat', 'chatbot'], members: [], phrases: [] },
  messaging: { words: ['sms', 'texto', 'textos'], members: ['whatsapp', 'messenger', 'telegram'], phrases: [] },
  inPerson: { words: ['agence', 'boutique', 'magasin', 'guichet', 'présentiel'], members: [], phrases: ['en personne', 'sur place', 'en (magasin|boutique|agence)', 'face à face'] },
  computer: { words: ['web'], members: ['ordinateur', 'ordi', 'pc', 'mac', 'navigateur', 'site'], phrases: [] },
  mobile: { words: ['mobile', 'appli', 'application', 'app'], members: ['smartphone', 'iphone', 'android', 'tablette', 'ipad'], phrases: ['sur mon téléphone'] },
  work: { words: ['travail', 'boulot', 'bureau', 'professionnel', 'professionnelle', 'pro', 'entreprise', 'employeur', 'clients', 'job'], members: [], phrases: ['pour le (travail|boulot)'] },
  personal: { words: ['personnel', 'personnelle', 'privé', 'perso', 'maison', 'loisir', 'loisirs'], members: [], phrases: ['pour (moi|moi-même)', 'à la maison'] },
  morning: { words: ['matin', 'matinée', 'réveil', 'petit-déjeuner'], members: ['tôt'], phrases: ['le matin', 'avant (le travail|midi|le déjeuner)', 'au réveil'] },
  afternoon: { words: ['après-midi', 'midi'], members: ['déjeuner'], phrases: ['après (le)? déjeuner', 'l après midi'] },
  evening: { words: ['soir', 'soirée', 'coucher'], members: ['tard', 'dîner'], phrases: ['le soir', 'après (le travail|le dîner|le boulot)', 'avant de (dormir|me coucher)'] },
  daily: { words: ['quotidien', 'quotidiennement', 'journalier'], members: [], phrases: ['tous les (jours|matins|soirs)', 'chaque (jour|matin|soir)', 'tout le temps', 'plusieurs fois par jour'] },
  weekly: { words: ['hebdomadaire', 'hebdo'], members: [], phrases: ['toutes les semaines', 'chaque semaine', '(une|1|quelques) fois par semaine'] },
  monthly: { words: ['mensuel', 'mensuellement'], members: [], phrases: ['tous les mois', 'chaque mois', '(une|1) fois par mois'] },
  rarely: { words: ['rarement', 'occasionnellement', 'parfois', 'guère'], members: [], phrases: ['de temps en temps', 'de temps à autre', 'pas (très)? souvent', 'presque jamais'] },
  other: { words: ['autre', 'autres', 'divers'], members: [], phrases: ['autre chose'] },
};

const ES: ConceptLexicon = {
  transit: { words: ['transporte'], members: ['autobús', 'bus', 'metro', 'tren', 'cercanías', 'tranvía'], phrases: ['transporte público'] },
  cycling: { words: ['bici', 'bicicleta'], members: ['pedaleando'], phrases: ['en bici', 'en bicicleta'] },
  car: { words: ['coche', 'carro', 'auto'], members: ['conduzco', 'manejo'], phrases: ['en coche'] },
  walking: { words: ['andando', 'caminando', 'pie'], members: ['camino', 'paseando'], phrases: ['a pie'] },
  cash: { words: ['efectivo', 'metálico'], members: ['billetes', 'monedas'], phrases: ['en efectivo', 'en metálico'] },
  card: { words: ['tarjeta'], members: ['débito', 'crédito', 'visa', 'contactless', 'datáfono'], phrases: [] },
  rent: { words: ['alquiler', 'alquilo', 'alquilado', 'arrendamiento'], members: ['inquilino', 'casero'], phrases: ['de alquiler'] },
  own: { words: ['propiedad', 'propietario', 'propia'], members: ['hipoteca', 'compramos', 'compré'], phrases: ['(casa|piso|vivienda) propia'] },
  shared: { words: ['compartido', 'compartida', 'comparto'], members: ['compañeros de piso'], phrases: ['comparto piso', 'piso compartido'] },
  student: { words: ['estudiante', 'estudiando', 'estudio'], members: ['universidad', 'uni', 'facultad', 'carrera', 'instituto'], phrases: [] },
  selfEmployed: { words: ['autónomo', 'autónoma', 'freelance', 'independiente'], members: [], phrases: ['por mi cuenta', 'mi propio negocio'] },
  retired: { words: ['jubilado', 'jubilada', 'jubilación', 'retirado'], members: ['pensión', 'pensionista'], phrases: [] },
  tv: { words: ['tele', 'televisión', 'tv'], members: [], phrases: [] },
  people: {
    words: ['familia', 'recomendación', 'recomendado', 'recomendó', 'familiar', 'familiares', 'amigo', 'amiga', 'amigos', 'amigas', 'compañero', 'compañera', 'compañeros', 'colega', 'colegas', 'jefe', 'jefa', 'esposa', 'esposo', 'mujer', 'marido', 'pareja', 'novio', 'novia', 'hermano', 'hermana', 'madre', 'padre', 'padres', 'mamá', 'papá', 'primo', 'prima', 'tío', 'tía', 'vecino', 'vecina', 'conocido', 'conocida', 'alguien', 'hijo', 'hija'], members: [],
    phrases: ['boca a boca', 'boca en boca', 'me (lo)? (contó|dijo|recomendó|habló|enseñó|mostró)', 'me (habló|hablaron) de', 'por (un|una)? (amigo|amiga|conocido|colega)'],
  },
  search: {
    words: ['busqué', 'buscando', 'buscar', 'buscador', 'búsqueda', 'busque'], members: ['google', 'googleé', 'googlee', 'gugleé', 'bing'],
    phrases: ['motor de búsqueda', 'lo (busqué|encontré) en (internet|google)', 'buscando en internet'],
  },
  social: {
    words: ['sociales'], members: ['instagram', 'insta', 'tiktok', 'facebook', 'twitter', 'linkedin', 'youtube', 'reddit', 'snapchat', 'pinterest', 'influencer'],
    phrases: ['redes sociales', 'social media'],
  },
  ads: { words: ['anuncio', 'anuncios', 'publicidad', 'propaganda', 'patrocinado', 'banner', 'valla', 'comercial', 'cartel'], members: [], phrases: [] },
  email: { words: ['correo', 'email', 'e-mail', 'mail', 'boletín', 'newsletter', 'correos'], members: [], phrases: ['correo electrónico'] },
  store: { words: ['appstore', 'playstore'], members: [], phrases: ['app store', 'play store', 'google play', 'tienda de (aplicaciones|apps)'] },
  press: { words: ['blog', 'artículo', 'noticias', 'prensa', 'periódico', 'revista', 'podcast', 'reseña', 'reseñas'], members: [], phrases: [] },
  events: { words: ['conferencia', 'evento', 'feria', 'meetup', 'webinar', 'seminario', 'taller', 'congreso', 'charla'], members: [], phrases: [] },
  broadcast: { words: ['radio'], members: [], phrases: [] },
  price: {
    words: ['precio', 'precios', 'costo', 'coste', 'cuesta', 'dinero', 'presupuesto', 'suscripción', 'descuento', 'euros', 'tarifa'], members: ['barato', 'barata', 'caro', 'cara', 'económico', 'económica', 'asequible', 'gratis', 'gratuito', 'pagar'],
    phrases: ['calidad precio', 'relación calidad'],
  },
  speed: { words: ['rapidez', 'velocidad', 'lentitud', 'carga', 'rendimiento'], members: ['rápido', 'rápida', 'rápidamente', 'lento', 'lenta'], phrases: ['tarda (mucho|demasiado)'] },
  ease: { words: ['facilidad', 'sencillez', 'comodidad'], members: ['fácil', 'fácilmente', 'sencillo', 'sencilla', 'simple', 'intuitivo', 'intuitiva', 'complicado', 'práctico', 'cómodo'], phrases: ['fácil de usar', 'fácil de manejar'] },
  support: { words: ['soporte', 'ayuda', 'asistencia', 'atención', 'agente', 'agentes'], members: [], phrases: ['(atención|servicio) al cliente', 'me (ayudaron|ayudó)'] },
  features: { words: ['función', 'funciones', 'funcionalidad', 'funcionalidades', 'características', 'integraciones'], members: [], phrases: [] },
  design: { words: ['diseño', 'aspecto', 'interfaz', 'estética', 'apariencia'], members: ['bonito', 'bonita'], phrases: [] },
  reliability: { words: ['fiabilidad', 'estabilidad', 'bloquea', 'cuelga', 'error', 'errores', 'fallos', 'caída', 'caídas'], members: ['fiable', 'confiable', 'estable'], phrases: ['siempre funciona'] },
  privacy: { words: ['privacidad', 'seguridad', 'rgpd', 'cifrado'], members: [], phrases: [] },
  phone: { words: ['telefónica', 'telefónico', 'teléfono', 'llamada', 'llamé', 'llamar'], members: [], phrases: ['por teléfono'] },
  chat: { words: ['chat', 'chatear', 'chatbot'], members: [], phrases: [] },
  messaging: { words: ['sms', 'mensaje', 'mensajes', 'mensajería'], members: ['whatsapp', 'messenger', 'telegram'], phrases: [] },
  inPerson: { words: ['presencial', 'presencialmente', 'oficina', 'sucursal', 'tienda', 'ventanilla'], members: [], phrases: ['en persona', 'cara a cara', 'en (la)? tienda', 'fui a la (oficina|tienda|sucursal)'] },
  computer: { words: ['web'], members: ['ordenador', 'computadora', 'portátil', 'laptop', 'pc', 'mac', 'navegador', 'sitio'], phrases: [] },
  mobile: { words: ['app', 'aplicación'], members: ['móvil', 'celular', 'smartphone', 'iphone', 'android', 'tableta', 'tablet', 'ipad'], phrases: [] },
  work: { words: ['trabajo', 'laboral', 'oficina', 'profesional', 'profesionalmente', 'empresa', 'negocio', 'clientes', 'empleo'], members: [], phrases: ['para (el)? trabajo'] },
  personal: { words: ['personal', 'privado', 'casa', 'hobby', 'afición', 'ocio'], members: [], phrases: ['para mí', 'en mi tiempo libre', 'por mi cuenta'] },
  morning: { words: ['mañana', 'mañanas'], members: ['temprano', 'desayuno'], phrases: ['por la mañana', 'antes (del trabajo|de comer)', 'al levantarme'] },
  afternoon: { words: ['tarde', 'tardes', 'siesta'], members: ['mediodía'], phrases: ['por la tarde', 'después de comer'] },
  evening: { words: [], members: ['cena'], phrases: ['por la noche', 'después de (cenar|la cena|trabajar|del trabajo)', 'antes de dormir'] },
  daily: { words: ['diario', 'diariamente', 'cotidiano'], members: [], phrases: ['todos los días', 'cada día', 'a diario', 'todo el tiempo', 'varias veces al día'] },
  weekly: { words: ['semanal', 'semanalmente'], members: [], phrases: ['todas las semanas', 'cada semana', '(una|1|algunas|varias) (vez|veces) (a la|por) semana'] },
  monthly: { words: ['mensual', 'mensualmente'], members: [], phrases: ['todos los meses', 'cada mes', '(una|1) vez al mes'] },
  rarely: { words: ['raramente', 'ocasionalmente', 'apenas'], members: [], phrases: ['rara vez', 'de vez en cuando', 'casi nunca', 'no (muy)? a menudo', 'pocas veces'] },
  other: { words: ['otro', 'otra', 'otros', 'otras'], members: [], phrases: ['otra cosa', 'algo (distinto|diferente)'] },
};

/** Concept lexicons by primary language subtag. */
export const CONCEPTS: Record<string, ConceptLexicon> = { en: EN, nl: NL, de: DE, fr: FR, es: ES };

/**
 * Phrases that reject every option ("none of those", "keine davon"): the answer names no option.
 * When the question has an option that says the same ("None of the above"), that option is meant.
 */
export const NONE_OF_THESE: Record<string, readonly string[]> = {
  en: [
    'none of (these|those|them|the above|the options|that|this|it|the choices)?', 'neither (of them|of those|one)?',
    'nothing (like that|from the list)', 'not any of (them|those|these)', "(doesn't|does not|don't|do not) (apply|fit)",
    "(none|nothing) (applies|apply|fits)", 'not on the list', "(it's|it is|it was)? not (on )? (there|listed)",
  ],
  nl: [
    'geen van (deze|die|allen|alle|beide|de opties|de antwoorden|de twee)?', 'geen enkele', 'geen (ervan|daarvan)', 'niets (daarvan|ervan|van dat alles)',
    '(geen|niks|niets) (past|klopt)', 'past niet', 'staat er niet (bij|tussen)',
  ],
  de: [
    '(keine|keines|keins|keiner|keinen) davon', '(keine|keines|keins|keiner|keinen) von (diesen|denen|ihnen|beiden)', 'nichts davon', 'weder noch', 'nichts (passt|trifft zu)',
    '(trifft|passt) nicht(s)? zu', 'keine der (optionen|antworten|möglichkeiten)', 'ist nicht dabei', 'nichts dabei',
  ],
  fr: [
    "(aucun|aucune) (de ces|d eux|d elles|des deux|de celles ci|de ceux ci|des options|des propositions|des réponses)?", 'ni l un ni l autre',
    "(rien|aucun|aucune) ne (correspond|convient|s applique)", 'rien de tout (ça|cela)', "(ça|cela) ne correspond pas", "(il|ça) n y est pas",
  ],
  es: [
    '(ninguna|ninguno)', '(ninguna|ninguno) de (esas|esos|ellas|ellos|estas|estos|las opciones|los dos|las dos|las anteriores|los anteriores)', 'ni uno ni otro', 'nada de (eso|esto)',
    '(ninguna|nada) (encaja|aplica|corresponde)', 'no (encaja|aplica|corresponde)', 'no está en la lista',
  ],
};

/**
 * Words that bring what follows short of itself ("almost never" is rarely, "presque jamais" is
 * not "Jamais"): an option's words right after one do not name it.
 */
export const APPROXIMATORS: Record<string, readonly string[]> = {
  en: ['almost', 'nearly', 'practically', 'virtually'],
  nl: ['bijna', 'nagenoeg', 'haast', 'vrijwel'],
  de: ['fast', 'beinahe', 'nahezu', 'quasi'],
  fr: ['presque', 'quasiment', 'pratiquement', 'quasi'],
  es: ['casi', 'prácticamente', 'practicamente'],
};
