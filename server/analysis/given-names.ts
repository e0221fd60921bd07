/**
 * Given names common in English-, Dutch-, German-, French- and Spanish-speaking countries: a
 * compact list written for this project (no outside data, so no licence to carry). It is a cue,
 * not the method: names after an introduction, a title or a relation ("my colleague …") are found
 * without it. Accents are kept; lookups fold case.
 */
const GIVEN_NAMES = `
aaron abby abigail adam adrian aidan alan alex alexander alexandra alice alicia alison amanda amelia amy andrew andy angela anna anne annie anthony antonio arthur ashley barbara ben benjamin beth betty brandon brenda brian bridget caitlin cameron carl carla carol caroline catherine charles charlie charlotte chloe chris christina christine christopher claire cody colin connor craig cynthia daniel danielle david deborah debbie dennis derek diana diane donald donna dorothy dylan edward eleanor elizabeth ellen emily emma eric erin ethan evan fiona gary george gemma gordon graham gregory hannah harry heather helen henry holly ian isaac isabel isabella jack jacob james jamie jane janet jason jeffrey jennifer jenny jeremy jessica jim jimmy joan joanna joe john jonathan jordan joseph joshua judith julia julie justin karen kate katherine kathleen katie keith kelly kenneth kevin kimberly kyle laura lauren leah liam linda lisa logan louise lucy luke lydia madison margaret maria marie martha mary matthew megan melissa michael michelle mike molly nancy natalie nathan neil nicholas nicole noah olivia oliver owen pamela patricia patrick paul paula peter philip rachel rebecca richard robert robin ryan samantha samuel sandra sarah scott sean sharon shirley simon sophia sophie stephanie stephen steve steven stuart susan tammy teresa thomas tiffany timothy tom tony tracy tyler valerie vanessa victoria vincent walter wendy william zoe
olga ivan dmitri natasha sergei katarzyna piotr agnieszka tomasz mehmet ayşe fatma emre elif mustafa ibrahim karim mehdi nadia samira youssef khadija rachid leila ahmed ali amir fatima hassan mohammed muhammad omar priya raj rahul sanjay yusuf wei li chen mei hiroshi yuki kenji aisha
anouk bart bas bram daan dirk eline emma femke floor freek geert gerrit hanneke henk ineke jaap jan janneke jasper jeroen joost joris karin kees koen lieke lotte luuk maarten marieke marloes martijn mirjam niels pieter ruben sander sanne saskia sjoerd stijn thijs tim wim wouter yvonne bas fleur ilse inge jelle jolanda kim lars lisanne maaike mark marijke mees milan nienke noor nora pim renske rick rik roel roos ruud sem sietske tessa teun thomas tijn vera wessel willem yara zoë anke bertus evert gijs hein hendrik hidde ivo jesse jorien joyce manon merel myrthe nick robbert sven bram
andreas anja anke annika barbara bernd birgit christian claudia dieter dirk elke felix florian frank franziska frieda gerhard gisela gudrun günter hans heike heinz helga helmut holger ingrid jan jana jens jörg jürgen julia jonas karl karin katharina klaus kerstin lena leon lukas manfred marco markus martin matthias maximilian michael monika nadine niklas nina olaf oliver petra philipp ralf rainer sabine sandra sebastian silke simone stefan stefanie susanne sven thomas thorsten tobias torsten ulrich ulrike ursula uwe volker werner wolfgang yvonne anneliese dagmar detlef ekkehard erika friedrich gabriele gertrud hannelore hildegard jochen kai lars lutz marlene renate rolf sigrid sönke till ute uta wiebke jannik lea leonie mia emil finn ben paul luisa
adrien agnès alain amélie antoine audrey aurélie baptiste benoît bernard brigitte bruno camille caroline cécile céline chantal christophe claude clément colette corinne damien delphine denis didier dominique élise émilie éric étienne fabien fabrice florence florian françois françoise frédéric gabriel gaëlle geneviève gérard guillaume hélène hugo inès isabelle jacques jean jeanne jérôme joël josé josiane julien juliette laetitia laurent léa léo louis lucas lucie luc manon marc marcel marguerite mathieu mathilde maxime michel monique mylène nathalie nicolas océane olivier pascal pascale patrice philippe pierre quentin raphaël rémi renée romain sébastien simone solène stéphane stéphanie sylvie théo thierry valérie vincent virginie xavier yannick yves zoé anaïs chloé clémence emma enzo gaspard jules louise margaux maëlle noé timothée baptiste benjamin arnaud cédric gilles hervé jean-pierre jean-paul jean-luc marie-claire marie-france anne-sophie pierre-yves
adrián alba alberto alejandra alejandro alfonso álvaro ana andrés ángel antonio beatriz carlos carmen catalina cristina daniel david diego eduardo elena emilio enrique esperanza esteban eva fernando francisco gabriela gonzalo guillermo ignacio inés irene isabel jaime javier jesús jorge josé juan julia julián laura leticia lorena lucía luis manuel marcos margarita maría marina marta martín miguel mónica natalia nicolás nuria pablo patricia pedro pilar rafael ramón raquel ricardo roberto rocío rodrigo rubén santiago sara sergio silvia sofía susana teresa tomás vicente víctor verónica ximena yolanda agustín ainhoa alicia amparo aránzazu begoña concepción consuelo dolores encarnación fátima gloria iker itziar jordi josep lucas marc mercedes montserrat núria óscar paloma remedios sonia valentina xavier
`;

/** Given names that are also common words ("Mark the box", "Will it work"): a name where a sentence does not start with it. */
const HOMONYM_GIVEN_NAMES = `
will mark bill frank grace hope joy faith rose lily ivy iris dawn summer sky art guy jack pat rob sue ray gene chase dean drew grant hunter miles max sol paz luz rosa blanca clara angel amber crystal ruby pearl penny holly fleur floor noor roos sem tim kim ben mia emil nick job hein gloria
`;

/** Given names that are also months, places or brands ("in May", "Paris", "Mercedes"): a name only with a surname or a cue. */
const STRICT_GIVEN_NAMES = `
may june april august florence paris sydney austin victoria georgia virginia charlotte lincoln jordan carmen mercedes jan dolores esperanza consuelo pilar rocío
`;

function wordsOf(list: string): Set<string> {
  return new Set(list.split(/\s+/).filter((word) => word !== ''));
}

const HOMONYMS = wordsOf(HOMONYM_GIVEN_NAMES);
const STRICT = wordsOf(STRICT_GIVEN_NAMES);
const NAMES = wordsOf(GIVEN_NAMES);
for (const word of [...HOMONYMS, ...STRICT]) NAMES.delete(word);

/** How sure a capitalised word is a given name on its own: `name`, `homonym` (not at a sentence start), `strict` (only with a surname or a cue), or null. */
export type GivenNameSureness = 'name' | 'homonym' | 'strict';

export function givenNameSureness(word: string): GivenNameSureness | null {
  const folded = word.toLocaleLowerCase();
  if (NAMES.has(folded)) return 'name';
  if (HOMONYMS.has(folded)) return 'homonym';
  if (STRICT.has(folded)) return 'strict';
  return null;
}
