/**
 * What people type in everyday words, each asked alone, reads something the records hold: nothing
 * left out, nothing corrected into another word, at least one record (issue 46, seventh round).
 *
 * English words, asked in an English question: in English mode a word with no glossary entry is
 * neither corrected nor translated, so it read nothing, and a question made only of such words
 * (« what should I do when I meet horse riders on the road ») found no record at all. The list was
 * written from the handbooks' vocabulary before the entries it led to; a word leaves it only with a
 * reason (« help », « safe »: question words; « motorhome », « shadow », « stall »: no record holds
 * their French). The phrases after them are the handbooks' (« box junction », « double white
 * lines », « jump leads »); « road tax », « no claims bonus », « dashcam » and a few more are left
 * out: no record holds what they name.
 *
 * French verbs a driver types about what happens (« je vois », « je cale », « ça vibre »): the
 * stemmer folds no verb form, so « vois » was corrected into « voie », « cale » into « calme »,
 * « vibre » into « vitre », « bois » into « bons », « paie » into « page ». The aliases read each as
 * the records' word (data/search/aliases.json).
 */
import { describe, expect, it } from 'vitest'
import { BUNDLED_RECORDS_FILE } from '../../src/config.js'
import { FileRecordSource } from '../../src/core/records/file-source.js'
import { RecordIndex, toIndexQuery } from '../../src/core/search/record-index.js'

const index = RecordIndex.build(await new FileRecordSource(BUNDLED_RECORDS_FILE).load())

/** How best match misreads `q`, or undefined when it reads every word and finds a record. */
function misreading(q: string) {
  const page = index.search(toIndexQuery({ q, match: 'best', limit: 1, offset: 0 }))
  const corrected = page.interpretation?.corrected ?? []
  const leftOut = page.interpretation?.left_out ?? []
  return page.total === 0 || corrected.length > 0 || leftOut.length > 0
    ? { q, total: page.total, corrected, leftOut }
    : undefined
}

// prettier-ignore
const EVERYDAY_WORDS = [
  'road', 'roads', 'street', 'streets', 'lane', 'lanes', 'highway', 'freeway', 'junction', 'intersection',
  'crossroads', 'traffic', 'traffic lights', 'light', 'lights', 'car', 'cars', 'vehicle', 'vehicles',
  'driver', 'drivers', 'driving', 'pedestrian', 'pedestrians', 'cyclist', 'cyclists', 'bike', 'bicycle',
  'motorbike', 'motorcycle', 'scooter', 'truck', 'lorry', 'bus', 'tram', 'train', 'tractor', 'horse',
  'horses', 'rider', 'riders', 'horse riders', 'animal', 'animals', 'dog', 'child', 'children', 'kids',
  'baby', 'parent', 'parents', 'passenger', 'passengers', 'seat', 'seats', 'belt', 'helmet', 'speed',
  'fast', 'slow', 'limit', 'fine', 'points', 'licence', 'license', 'test', 'exam', 'lesson', 'lessons',
  'instructor', 'school', 'teacher', 'price', 'cost', 'cheap', 'hour', 'hours', 'day', 'days', 'month',
  'year', 'years', 'age', 'old', 'young', 'night', 'dark', 'rain', 'snow', 'ice', 'fog', 'wind', 'sun',
  'weather', 'winter', 'summer', 'mountain', 'hill', 'bend', 'curve', 'tunnel', 'bridge', 'parking',
  'park', 'stop', 'turn', 'left', 'right', 'straight', 'reverse', 'overtake', 'overtaking', 'brake',
  'accelerate', 'gear', 'clutch', 'engine', 'battery', 'tyre', 'tire', 'wheel', 'steering wheel', 'mirror',
  'indicator', 'horn', 'headlights', 'windscreen', 'wipers', 'fuel', 'petrol', 'diesel', 'electric',
  'insurance', 'accident', 'crash', 'injured', 'emergency', 'police', 'ambulance', 'doctor', 'hospital',
  'alcohol', 'drink', 'drunk', 'drugs', 'medicine', 'tired', 'sleep', 'phone', 'mobile', 'text', 'music',
  'eyes', 'eyesight', 'glasses', 'health', 'disabled', 'elderly', 'give way', 'priority', 'roundabout',
  'sign', 'marking', 'line', 'arrow', 'zebra crossing', 'pedestrian crossing', 'speed camera', 'radar',
  'documents', 'registration', 'sell', 'buy', 'rent', 'abroad', 'foreign', 'exchange', 'theory',
  'practical', 'pass', 'fail', 'retake', 'book', 'online', 'meet', 'wait', 'jam', 'breakdown', 'puncture',
  'warning triangle', 'vest', 'first aid', 'noise', 'smell', 'smoke', 'leak', 'oil', 'water', 'coolant',
  'temperature', 'dashboard', 'warning light', 'bonnet', 'boot', 'trunk', 'door', 'window', 'roof',
  'trailer', 'caravan', 'taxi', 'van', 'delivery', 'neighbour', 'friend', 'family', 'holiday', 'trip',
  'journey', 'distance', 'metre', 'metres', 'kilometre', 'minute', 'minutes', 'second', 'seconds',
  'safety', 'danger', 'dangerous', 'careful', 'blind spot', 'visibility', 'glare', 'dazzle', 'skid',
  'slide', 'slippery', 'wet', 'dry', 'gravel', 'pothole', 'roadworks', 'detour', 'diversion', 'closed',
  'one way', 'dead end', 'no entry', 'no parking', 'u-turn', 'three point turn', 'hill start',
  'reverse parking',
  // Phrases of the handbooks (issue 46, seventh round): the French rule for a British one where France has it.
  'speed bump', 'hard shoulder', 'dual carriageway', 'box junction', 'yellow box junction', 'bus stop',
  'pelican crossing', 'double white lines', 'no overtaking', 'one-way street', 'mobile phone', 'seat belt',
  'child seat', 'booster seat', 'learner driver', 'driving instructor', 'theory test', 'practical test',
  'driving lesson', 'test centre', 'licence points', 'penalty points', 'drink driving', 'drug driving',
  'speeding fine', 'parking ticket', 'clamped', 'traffic warden', 'sat nav', 'spare wheel', 'jump leads',
  'car insurance', 'MOT', 'number plate', 'tinted windows', 'snow chains', 'winter tyres', 'fog lights',
  'dipped headlights', 'full beam', 'sidelights', 'indicators', 'handbrake', 'clutch pedal', 'gear stick',
  'rear view mirror', 'wing mirror', 'blind spot check', 'mirror signal manoeuvre', 'emergency stop',
  'parallel park', 'bay parking', 'roundabout exit', 'slip road', 'overtaking lane', 'motorway services',
  'rest area', 'toll road', 'speed limit sign', 'school zone', 'pedestrian zone', 'cycle lane', 'bus lane',
  'tram lines', 'level crossing',
  // Words of a question's frame that name what is asked (how far: a distance; within: a « délai »).
  'how far', 'how close', 'too close', 'wide', 'deadline', 'time limit', 'how much time', 'at least',
]

const SAID = [
  'je vois',
  'on voit mal',
  'je cale',
  'ça vibre',
  'je sors',
  "j'ai renversé",
  "j'ai cogné",
  'je bois',
  "j'ai bu",
  'je paie',
  'on paye',
  'je souffle',
  'je débraye',
  'ça patine',
  'ça sent le brûlé',
]

describe('everyday words', () => {
  it('each English word of the domain reads something the records hold, asked alone in an English question', () => {
    expect(
      EVERYDAY_WORDS.map((word) => misreading(`what is the ${word}`)).filter((m) => m !== undefined),
    ).toEqual([])
  })

  it('each conjugated verb a driver types reads something the records hold, and is not corrected into another word', () => {
    expect(SAID.map(misreading).filter((m) => m !== undefined)).toEqual([])
  })
})
