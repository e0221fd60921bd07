/**
 * Valence of the words and short phrases people use about products and services in research
 * interviews (speed, price, reliability, ease of use, support, bugs, documentation, delivery…),
 * per language, from -3 (very negative) to +3 (very positive). It adds to the general lexicons
 * of nlp.js, which miss much of this vocabulary. Written from the languages, not from any test
 * set. Entries are lower case; a phrase is several words separated by single spaces.
 */
export const DOMAIN_VALENCE: Record<'nl' | 'de' | 'fr' | 'es', Record<string, number>> = {
  nl: {
    // speed
    'traag': -2, 'trage': -2, 'langzaam': -2, 'langzame': -2, 'snel': 2, 'snelle': 2,
    'vlot': 2, 'vlotte': 2, 'hapert': -2, 'loopt vast': -2, 'vastlopen': -2,
    'bevriest': -2, 'crasht': -2,
    // price
    'duur': -1, 'dure': -1, 'te duur': -2, 'veel te duur': -3, 'prijzig': -1,
    'overprijsd': -2, 'goedkoop': 1, 'goedkope': 1, 'betaalbaar': 2, 'betaalbare': 2,
    'waar voor je geld': 2, 'de moeite waard': 2, 'het geld waard': 2,
    // reliability
    'bug': -1, 'bugs': -2, 'fout': -1, 'fouten': -2, 'foutmelding': -2,
    'crash': -2, 'crashes': -2, 'storing': -2, 'storingen': -2, 'kapot': -2,
    'werkt niet': -2, 'werkt goed': 2, 'werkt prima': 2, 'werkt perfect': 3, 'stabiel': 2,
    'stabiele': 2, 'instabiel': -2, 'betrouwbaar': 2, 'betrouwbare': 2, 'onbetrouwbaar': -2,
    // ease of use
    'intuïtief': 2, 'intuitief': 2, 'verwarrend': -2, 'verwarrende': -2,
    'ingewikkeld': -2, 'ingewikkelde': -2, 'omslachtig': -2, 'makkelijk': 2,
    'makkelijke': 2, 'gemakkelijk': 2, 'eenvoudig': 2, 'eenvoudige': 2, 'simpel': 1,
    'duidelijk': 2, 'duidelijke': 2, 'onduidelijk': -2,
    'gebruiksvriendelijk': 2, 'gebruiksvriendelijke': 2, 'overzichtelijk': 2,
    'onoverzichtelijk': -2, 'lastig': -1, 'onhandig': -2, 'handig': 2,
    'handige': 2, 'gedoe': -2,
    // support and service
    'behulpzaam': 2, 'behulpzame': 2, 'vriendelijk': 2, 'vriendelijke': 2, 'onvriendelijk': -2,
    'onbeleefd': -2, 'snel geholpen': 2, 'goed geholpen': 2,
    'snelle reactie': 2, 'snel antwoord': 2, 'nooit antwoord': -2, 'geen antwoord': -2,
    'nooit gereageerd': -2, 'slechte service': -2,
    'uitstekende service': 3,
    // emotions and judgements
    'tevreden': 2, 'ontevreden': -2, 'blij': 2, 'teleurgesteld': -2,
    'teleurstellend': -2, 'teleurstelling': -2, 'gefrustreerd': -2, 'frustrerend': -2,
    'geïrriteerd': -2, 'irritant': -2,
    'ergerlijk': -2, 'boos': -2, 'kwaad': -2, 'dol op': 2,
    'hekel': -2, 'haat': -3, 'geweldig': 3, 'geweldige': 3, 'uitstekend': 3, 'uitstekende': 3,
    'vreselijk': -3, 'verschrikkelijk': -3, 'waardeloos': -3, 'waardeloze': -3,
    'fantastisch': 3, 'fantastische': 3, 'top': 2, 'super': 2, 'prima': 1, 'fijn': 2,
    'fijne': 2, 'prettig': 2, 'perfect': 3, 'ideaal': 2, 'slecht': -2,
    'slechte': -2, 'valt tegen': -2, 'viel tegen': -2,
    // recommendation
    'aanrader': 2, 'aanraden': 2, 'aanbevelen': 2, 'niet aanraden': -2,
    // problems
    'probleem': -1, 'problemen': -2, 'geen probleem': 1, 'mist': -1, 'ontbreekt': -1,
    'beperkt': -1, 'tijdverspilling': -2,
    'zonde van de tijd': -2, 'vervelend': -2,
    // improvements
    'verbeterd': 2, 'verbetering': 1, 'beter': 1, 'slechter': -2, 'erger': -2,
    'verslechterd': -2, 'achteruitgegaan': -2,
  },
  de: {
    // speed
    'langsam': -2, 'langsame': -2, 'träge': -2, 'lahm': -2, 'schnell': 2,
    'schnelle': 2, 'flott': 2, 'ruckelt': -2, 'ruckelig': -2,
    'hängt sich auf': -2, 'friert ein': -2, 'stürzt ab': -2,
    'abgestürzt': -2, 'absturz': -2,
    // price
    'teuer': -1, 'teure': -1, 'zu teuer': -2, 'viel zu teuer': -3, 'überteuert': -2,
    'günstig': 2, 'günstige': 2, 'preiswert': 2, 'bezahlbar': 2,
    'lohnt sich': 2, 'es wert': 2, 'abzocke': -3,
    // reliability
    'bug': -1, 'bugs': -2, 'fehler': -1, 'fehlermeldung': -2,
    'fehlerhaft': -2, 'kaputt': -2, 'funktioniert nicht': -2,
    'funktioniert gut': 2, 'funktioniert einwandfrei': 3,
    'läuft gut': 2, 'stabil': 2, 'stabile': 2, 'instabil': -2,
    'zuverlässig': 2, 'zuverlässige': 2, 'unzuverlässig': -2, 'ausfall': -2,
    'störung': -2,
    // ease of use
    'intuitiv': 2, 'intuitive': 2, 'verwirrend': -2, 'kompliziert': -2,
    'komplizierte': -2, 'umständlich': -2, 'einfach': 1, 'leicht': 1,
    'simpel': 1, 'übersichtlich': 2, 'unübersichtlich': -2, 'klar': 1,
    'unklar': -2, 'benutzerfreundlich': 2, 'benutzerfreundliche': 2,
    'selbsterklärend': 2, 'praktisch': 2, 'mühsam': -2, 'nervig': -2,
    'nervt': -2, 'schwierig': -1,
    // support and service
    'hilfsbereit': 2, 'hilfreich': 2, 'freundlich': 2, 'freundliche': 2,
    'unfreundlich': -2, 'unhöflich': -2, 'kompetent': 2, 'inkompetent': -2,
    'kundenfreundlich': 2, 'schnelle antwort': 2, 'keine antwort': -2,
    'nie geantwortet': -2, 'schlechter support': -2,
    'schlechter service': -2,
    // emotions and judgements
    'zufrieden': 2, 'unzufrieden': -2, 'glücklich': 2, 'froh': 2, 'begeistert': 3,
    'enttäuscht': -2, 'enttäuschend': -2, 'enttäuschung': -2, 'frustriert': -2,
    'frustrierend': -2, 'genervt': -2, 'verärgert': -2, 'ärgerlich': -2, 'sauer': -2,
    'wütend': -3, 'liebe': 2, 'hasse': -3, 'toll': 2, 'tolle': 2, 'großartig': 3,
    'großartige': 3, 'ausgezeichnet': 3, 'hervorragend': 3, 'hervorragende': 3,
    'exzellent': 3, 'schrecklich': -3, 'furchtbar': -3, 'katastrophe': -3,
    'katastrophal': -3, 'fantastisch': 3, 'top': 2, 'super': 2, 'klasse': 2, 'prima': 1,
    'perfekt': 3, 'angenehm': 2, 'schlecht': -2, 'schlechte': -2, 'mies': -2,
    // recommendation
    'empfehlen': 2, 'empfehle': 2, 'empfehlenswert': 2, 'weiterempfehlen': 2,
    'nicht empfehlen': -2, 'nicht weiterempfehlen': -2,
    // problems
    'problem': -1, 'probleme': -2, 'kein problem': 1, 'fehlt': -1, 'fehlen': -1,
    'eingeschränkt': -1, 'begrenzt': -1, 'zeitverschwendung': -2,
    'lästig': -2,
    // improvements
    'verbessert': 2, 'verbesserung': 1, 'besser': 1, 'besser geworden': 2, 'schlechter': -2,
    'schlechter geworden': -2, 'verschlechtert': -2, 'schlimmer': -2,
  },
  fr: {
    // speed
    'lent': -2, 'lente': -2, 'lents': -2, 'lentes': -2, 'lenteur': -2,
    'rapide': 2, 'rapides': 2, 'rapidité': 2, 'fluide': 2, 'réactif': 2,
    'rame': -2, 'plante': -2, 'planté': -2,
    'plantage': -2, 'se fige': -2, 'crash': -2,
    // price
    'cher': -1, 'chère': -1, 'chers': -1, 'trop cher': -2,
    'hors de prix': -3, 'abordable': 2, 'bon marché': 1, 'pas cher': 1,
    'bon rapport qualité prix': 2, 'vaut le coup': 2, 'arnaque': -3,
    // reliability
    'bug': -1, 'bugs': -2, 'erreur': -1, 'erreurs': -2,
    'panne': -2, 'en panne': -2, 'cassé': -2,
    'ne marche pas': -2, 'marche pas': -2, 'ne fonctionne pas': -2, 'fonctionne pas': -2,
    'marche bien': 2, 'fonctionne bien': 2, 'stable': 2,
    'instable': -2, 'fiable': 2, 'peu fiable': -2,
    // ease of use
    'intuitif': 2, 'intuitive': 2, 'déroutant': -2, 'confus': -2,
    'confuse': -2, 'compliqué': -2, 'compliquée': -2, 'complexe': -1,
    'facile': 2, 'simple': 1, 'clair': 2, 'claire': 2,
    'pas clair': -2, 'peu clair': -2, 'ergonomique': 2, 'convivial': 2, 'conviviale': 2,
    'fastidieux': -2, 'fastidieuse': -2, 'pénible': -2, 'lourd': -1, 'pratique': 2,
    'galère': -2,
    // support and service
    'serviable': 2, 'aimable': 2, 'sympa': 2,
    'impoli': -2, 'désagréable': -2, 'compétent': 2, 'incompétent': -2, 'réponse rapide': 2,
    'jamais répondu': -2, 'aucune réponse': -2,
    'réactivité': 2,
    // emotions and judgements
    'satisfait': 2, 'satisfaite': 2, 'insatisfait': -2, 'content': 2,
    'contente': 2, 'ravi': 3, 'ravie': 3, 'déçu': -2, 'déçue': -2,
    'décevant': -2, 'décevante': -2, 'déception': -2, 'frustré': -2,
    'frustrant': -2, 'agacé': -2, 'agaçant': -2, 'énervant': -2,
    'irritant': -2, 'en colère': -2, 'adore': 3, "j'adore": 3, 'déteste': -3,
    'génial': 3, 'géniale': 3, 'excellent': 3, 'excellente': 3, 'horrible': -3,
    'affreux': -3, 'nul': -3, 'nulle': -3, 'catastrophique': -3, 'pas terrible': -2,
    'fantastique': 3, 'top': 2, 'super': 2, 'parfait': 3, 'parfaite': 3, 'agréable': 2,
    'mauvais': -2, 'mauvaise': -2, 'médiocre': -2,
    // recommendation
    'recommande': 2, 'je recommande': 2, 'recommander': 2, 'à recommander': 2,
    'je ne recommande pas': -2, 'recommande pas': -2,
    // problems
    'problème': -1, 'problèmes': -2, 'pas de problème': 1, 'aucun problème': 1,
    'pas de souci': 1, 'souci': -1, 'soucis': -1, 'manque': -1, 'il manque': -1,
    'manquant': -1, 'limité': -1, 'limitée': -1, 'perte de temps': -2,
    'embêtant': -2,
    // improvements
    'amélioré': 2, 'améliorée': 2, 'amélioration': 1, 'mieux': 1, 'meilleur': 1,
    'meilleure': 1, 'pire': -2, 'dégradé': -2,
  },
  es: {
    // speed
    'lento': -2, 'lenta': -2, 'lentos': -2, 'lentitud': -2, 'rápido': 2,
    'rápida': 2, 'rapidez': 2, 'fluido': 2, 'se traba': -2,
    'se cuelga': -2, 'se congela': -2, 'se bloquea': -2, 'se cae': -2,
    'tarda mucho': -2,
    // price
    'caro': -1, 'cara': -1, 'demasiado caro': -2, 'muy caro': -2, 'barato': 1,
    'económico': 1, 'asequible': 2, 'precio justo': 2,
    'buena relación calidad precio': 2, 'vale la pena': 2, 'merece la pena': 2,
    'no vale la pena': -2, 'sobrevalorado': -2, 'estafa': -3,
    // reliability
    'bug': -1, 'bugs': -2, 'fallo': -2, 'fallos': -2, 'falla': -2,
    'error': -1, 'errores': -2, 'se rompe': -2, 'roto': -2, 'no funciona': -2,
    'funciona bien': 2, 'funciona perfecto': 3, 'estable': 2,
    'inestable': -2, 'fiable': 2, 'confiable': 2, 'poco fiable': -2,
    'caído': -2, 'caídas': -2,
    // ease of use
    'intuitivo': 2, 'intuitiva': 2, 'confuso': -2, 'confusa': -2, 'complicado': -2,
    'complicada': -2, 'complejo': -1, 'fácil': 2, 'fácil de usar': 2,
    'difícil de usar': -2, 'sencillo': 2, 'sencilla': 2, 'simple': 1, 'claro': 1, 'clara': 1,
    'poco claro': -2, 'amigable': 2, 'engorroso': -2, 'tedioso': -2,
    'práctico': 2, 'práctica': 2, 'difícil': -1,
    // support and service
    'atento': 2, 'amable': 2, 'amables': 2, 'servicial': 2, 'grosero': -2,
    'maleducado': -2, 'útil': 2, 'respuesta rápida': 2,
    'nunca respondieron': -2,
    'sin respuesta': -2, 'buena atención': 2, 'mala atención': -2,
    // emotions and judgements
    'satisfecho': 2, 'satisfecha': 2, 'insatisfecho': -2, 'contento': 2, 'contenta': 2,
    'feliz': 2, 'encantado': 3, 'encantada': 3, 'decepcionado': -2,
    'decepcionante': -2, 'decepción': -2, 'frustrado': -2,
    'frustrante': -2, 'molesto': -2, 'irritado': -2, 'irritante': -2,
    'enfadado': -2, 'enojado': -2, 'me encanta': 3, 'encanta': 3, 'odio': -3, 'genial': 3,
    'excelente': 3, 'terrible': -3, 'horrible': -3, 'fatal': -3, 'pésimo': -3,
    'pésima': -3, 'fantástico': 3, 'fantástica': 3, 'top': 2, 'súper': 2, 'super': 2,
    'perfecto': 3, 'perfecta': 3, 'malo': -2, 'mala': -2, 'desastre': -3,
    'agradable': 2,
    // recommendation
    'recomiendo': 2, 'lo recomiendo': 2, 'recomendable': 2, 'recomendar': 2,
    'no lo recomiendo': -2, 'no recomiendo': -2,
    // problems
    'problema': -1, 'problemas': -2, 'sin problema': 1, 'sin problemas': 1,
    'ningún problema': 1, 'falta': -1, 'le falta': -1, 'limitado': -1,
    'limitada': -1, 'pérdida de tiempo': -2, 'fastidioso': -2,
    // improvements
    'mejorado': 2, 'mejora': 1, 'mejor': 1, 'peor': -2, 'empeoró': -2,
    'ha empeorado': -2,
  },
};
