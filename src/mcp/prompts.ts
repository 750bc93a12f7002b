/**
 * Prompts, in French like the records and their readers: a client offers them as ready-made tasks
 * ("/answer_road_question" in a chat). Each tells the model the method the guide describes: search
 * first, read what it quotes, keep official rules apart, cite the record pages and their official
 * sources, and never invent a rule that no record holds.
 */
import type { McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { completedArgument } from './completion.js'

const METHOD = [
  'Méthode :',
  '1. Cherche d’abord avec l’outil search_facts (q = la question telle quelle, en français) ; si rien ne répond, relance avec d’autres mots (le mot courant, le terme juridique).',
  '2. Lis avec get_fact chaque fiche que tu cites : le résultat de recherche n’en montre qu’un extrait.',
  '3. Distingue les règles officielles (statut « règle officielle », avec leurs sources officielles et leur date de vérification) des leçons, méthodes et offres, qui expliquent sans faire foi.',
  '4. Cite chaque fiche utilisée : « Source : <titre> — <lien de la fiche> », et les sources officielles d’une règle. En cas de doute, seul le texte officiel fait foi.',
  '5. Si aucune fiche ne répond après deux recherches, dis-le clairement : n’invente pas de règle.',
].join('\n')

const user = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
})

/**
 * A prompt argument: a string of 1 to `max` characters. Its refusal says so in words (the SDK puts it
 * after "Invalid arguments for prompt <name>: <argument>: "), not in zod's own terms.
 */
const text = (max: number, what: string) => {
  const expects = `must be a string of 1 to ${max} characters — ${what}`
  return z.string({ error: expects }).min(1, { error: expects }).max(max, { error: expects }).describe(what)
}

/** The prompt arguments completed with record ids (completion.ts). */
export const PROMPT_COMPLETIONS = [completedArgument('ref/prompt', 'explain_rule_for_learner', 'rule')]

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'answer_road_question',
    {
      title: 'Répondre à une question de code de la route',
      description:
        'Answer a learner’s or a parent’s road-rule question from the records, citing the record pages and their official sources.',
      argsSchema: z.object({
        question: text(1000, 'La question, telle que posée (en français).'),
      }),
    },
    ({ question }) =>
      user(
        `Réponds à cette question à partir des fiches de reference-records : « ${question} »\n\n${METHOD}`,
      ),
  )

  server.registerPrompt(
    'explain_rule_for_learner',
    {
      title: 'Expliquer une règle à un élève',
      description:
        'Explain one rule to a learner preparing the driving test: simply, with an example, what the official text says and how to apply it.',
      argsSchema: z.object({
        rule: text(
          300,
          'L’identifiant d’une fiche (fait-…) ou le sujet de la règle (« priorité à droite »).',
        ),
      }),
    },
    ({ rule }) =>
      user(
        `Explique à un élève qui prépare le code de la route la règle suivante : « ${rule} ». ` +
          'Si c’est un identifiant de fiche, lis-la avec get_fact ; sinon cherche-la avec search_facts. ' +
          'Explique simplement ce que dit la règle, donne un exemple concret de situation de conduite et l’erreur fréquente à éviter, ' +
          'puis cite la fiche et ses sources officielles.\n\n' +
          METHOD,
      ),
  )
}
