// Cornish Smuggler: the map of West Cornwall (Penwith and Mount's Bay) with its roads, sea spaces and Merchants,
// every counter, Customs Officer, Goods Shape and ship; each player's hold and storehouses as grids; the
// Characters, the Customs Track, the Gold Wheel and your own Secrets.
//
// The client only ever gets views, which name places, ships, storehouses and cards by id. The board facts
// below (names, kinds, sizes, risks, roads, sea lanes, hold grids, card names and texts) mirror the game's
// data files: cornish_smuggler/data/map.toml, ships.toml, storehouses.toml, goods.toml, characters.toml
// and secrets.toml. Change them together. The x/y positions are this drawing's own, designed to follow
// the real coast. Anything a view names that is not listed here is still shown, by a readable form of its id.
"use strict";
(function () {
  const S = FT.svg;

  // ---- board data (mirrors data/*.toml) -------------------------------------------------------------
  const LOCS = {
    "scilly": { name: "Isles of Scilly", kind: "island", size: 2, risk: 0, land: [], sea: ["scilly-sound"] },
    "sennen": { name: "Sennen Cove", kind: "port", size: 0, risk: 2, land: ["st-levan","st-just"], sea: ["off-st-levan"] },
    "st-levan": { name: "St Levan", kind: "village", size: 0, risk: 0, land: ["sennen","mousehole"], sea: [] },
    "st-just": { name: "St Just", kind: "port", size: 2, risk: 4, land: ["sennen","pendeen","madron"], sea: ["north-coast"] },
    "pendeen": { name: "Pendeen", kind: "village", size: 0, risk: 0, land: ["st-just","zennor"], sea: [] },
    "zennor": { name: "Zennor", kind: "village", size: 0, risk: 0, land: ["pendeen","st-ives","nancledra"], sea: [] },
    "st-ives": { name: "St Ives", kind: "port", size: 5, risk: 5, land: ["zennor","lelant","nancledra"], sea: ["st-ives-bay"] },
    "nancledra": { name: "Nancledra", kind: "village", size: 0, risk: 0, land: ["zennor","st-ives","madron","ludgvan"], sea: [] },
    "lelant": { name: "Lelant", kind: "village", size: 0, risk: 0, land: ["st-ives","hayle"], sea: [] },
    "hayle": { name: "Hayle", kind: "port", size: 3, risk: 4, land: ["lelant","gwithian","st-erth"], sea: ["st-ives-bay"] },
    "gwithian": { name: "Gwithian", kind: "cove", size: 0, risk: 0, land: ["hayle","up-north"], sea: ["st-ives-bay"] },
    "st-erth": { name: "St Erth", kind: "village", size: 0, risk: 0, land: ["hayle","ludgvan","leedstown"], sea: [] },
    "madron": { name: "Madron", kind: "town", size: 2, risk: 0, land: ["st-just","nancledra","penzance"], sea: [] },
    "penzance": { name: "Penzance", kind: "port", size: 7, risk: 6, land: ["madron","newlyn","marazion"], sea: ["mounts-bay-west"] },
    "newlyn": { name: "Newlyn", kind: "port", size: 0, risk: 3, land: ["penzance","mousehole"], sea: ["mounts-bay-west"] },
    "mousehole": { name: "Mousehole", kind: "port", size: 0, risk: 2, land: ["newlyn","st-levan"], sea: ["mounts-bay-west"] },
    "ludgvan": { name: "Ludgvan", kind: "village", size: 0, risk: 0, land: ["nancledra","marazion","st-erth"], sea: [] },
    "marazion": { name: "Marazion", kind: "port", size: 3, risk: 4, land: ["penzance","ludgvan","perranuthnoe","goldsithney"], sea: ["mounts-bay-east"] },
    "perranuthnoe": { name: "Perranuthnoe", kind: "village", size: 0, risk: 0, land: ["marazion","prussia-cove"], sea: [] },
    "prussia-cove": { name: "Prussia Cove", kind: "cove", size: 0, risk: 0, land: ["perranuthnoe","breage"], sea: ["mounts-bay-east"] },
    "goldsithney": { name: "Goldsithney", kind: "village", size: 0, risk: 0, land: ["marazion","leedstown","godolphin","breage"], sea: [] },
    "breage": { name: "Breage", kind: "village", size: 0, risk: 0, land: ["prussia-cove","goldsithney","godolphin","porthleven"], sea: [] },
    "godolphin": { name: "Godolphin", kind: "village", size: 0, risk: 0, land: ["goldsithney","breage","leedstown","helston"], sea: [] },
    "leedstown": { name: "Leedstown", kind: "village", size: 0, risk: 0, land: ["goldsithney","godolphin","st-erth","up-north"], sea: [] },
    "porthleven": { name: "Porthleven", kind: "port", size: 3, risk: 3, land: ["breage","helston"], sea: ["mounts-bay-east"] },
    "helston": { name: "Helston", kind: "town", size: 5, risk: 0, land: ["porthleven","godolphin","up-north"], sea: [] },
    "up-north": { name: "'Up North'", kind: "town", size: 7, risk: 0, land: ["gwithian","leedstown","helston"], sea: [] },
  };
  const SEAS = {
    "north-coast": { name: "off Zennor and St Just", adj: ["st-ives-bay","off-st-levan","ireland"] },
    "st-ives-bay": { name: "St Ives Bay", adj: ["north-coast","ireland"] },
    "off-st-levan": { name: "off St Levan (Land's End)", adj: ["north-coast","mounts-bay-west","scilly-sound","guernsey"] },
    "scilly-sound": { name: "Scilly Sound", adj: ["off-st-levan","guernsey"] },
    "mounts-bay-west": { name: "Mount's Bay (west)", adj: ["off-st-levan","mounts-bay-east"] },
    "mounts-bay-east": { name: "Mount's Bay (east)", adj: ["mounts-bay-west","roscoff"] },
    "roscoff": { name: "Roscoff Merchant", adj: ["mounts-bay-east"], merchant: true },
    "guernsey": { name: "Guernsey Merchant", adj: ["off-st-levan","scilly-sound"], merchant: true },
    "ireland": { name: "Irish Merchant", adj: ["north-coast","st-ives-bay"], merchant: true },
  };
  const SHIPS = {
    "the-fox": { name: "The Fox", hold: [".####.","######","..##.."] },
    "the-good-intent": { name: "The Good Intent", hold: [".##.","####","####",".##."] },
    "the-three-brothers": { name: "The Three Brothers", hold: ["###","###","#.#","###"] },
    "the-lively-nancy": { name: "The Lively Nancy", hold: ["#####","#####",".#.#."] },
    "the-dove": { name: "The Dove", hold: ["####","####","#..#"] },
    "the-happy-return": { name: "The Happy Return", hold: ["##.##","#####","#...#","#...#"] },
    "the-providence": { name: "The Providence", hold: ["#.#.#","#####","#.#.#","#...#"] },
    "the-ranger": { name: "The Ranger", hold: ["..#.",".###","####",".##.","..#."] },
    "the-betsey": { name: "The Betsey", hold: ["###","###",".##",".##"] },
    "the-swallow": { name: "The Swallow", hold: ["#...#","#####",".###.","..#.."] },
  };
  const STORES = {
    "behind-the-turks-head": { name: "Behind The Turks Head", at: "penzance", hold: ["###",".##"] },
    "under-the-first-and-last": { name: "Under The First and Last", at: "sennen", hold: ["######","#....."] },
    "the-botallack-adit": { name: "The Botallack Adit", at: "st-just", hold: ["####.","..###"] },
    "the-pilchard-palace": { name: "The Pilchard Palace", at: "st-ives", hold: ["###","#.#","###"] },
    "st-unys-tower": { name: "St Uny's Tower", at: "lelant", hold: ["##","##","##"] },
    "the-net-loft": { name: "The Net Loft", at: "porthleven", hold: ["####","###."] },
    "the-angel-cellars": { name: "The Angel Cellars", at: "helston", hold: ["##.","###",".##"] },
    "the-glebe-barn": { name: "The Glebe Barn", at: "ludgvan", hold: [".##.","####",".##."] },
    "the-mayors-wine-cellar": { name: "The Mayor's Wine Cellar", at: "penzance", hold: ["###","###","##."] },
    "st-breacas-crypt": { name: "St Breaca's Crypt", at: "breage", hold: [".#.","###","###"] },
    "pendeen-fogou": { name: "Pendeen Fogou", at: "pendeen", hold: ["#####","....#","....#"] },
    "the-godolphin-stables": { name: "The Godolphin Stables", at: "godolphin", hold: ["#.#.#","#####"] },
  };
  const SHAPES = {
    "domino": ["##"],
    "i-tromino": ["###"],
    "l-tromino": ["##","#."],
    "i-tetromino": ["####"],
    "o-tetromino": ["##","##"],
    "l-tetromino": ["###","#.."],
    "t-tetromino": ["###",".#."],
    "s-tetromino": [".##","##."],
    "i-pentomino": ["#####"],
    "p-pentomino": ["##","##","#."],
  };
  const CHARS = {
    "allen-cutler": { name: "Allen Cutler", job: "Mayor of St Just", deck: "official", gold: 2, rep: 3, text: "Motivate as an Action: Pay 1 Reputation to move one Customs Officer 1 space." },
    "henry-baker": { name: "Henry Baker", job: "Mayor of Penzance", deck: "official", gold: 5, rep: 2, text: "Receive 'The Mayor's Wine Cellar' Storehouse." },
    "francis-oprey": { name: "Francis Oprey", job: "Coast Waiter", deck: "official", gold: 3, rep: 2, text: "Gain 2 Influence for each Goods Shape seized by Customs." },
    "john-thomas": { name: "John Thomas", job: "Assistant Supervisor of Customs", deck: "official", gold: 5, rep: 3, text: "When goods are seized, Pay 7 Gold / 5 Influence / 3 Reputation to remove one of that player's Characters from the game." },
    "edward-tregear": { name: "Edward Tregear", job: "Collector of Customs, Penzance", deck: "official", gold: 6, rep: 3, text: "Bribe Customs costs you 2 Gold less (to a minimum of 0 Gold)." },
    "thomas-rowe": { name: "Thomas Rowe", job: "Riding Officer of Marazion", deck: "official", gold: 4, rep: 2, text: "Motivate as an Action: Pay 2 Influence to move one Customs Officer up to 2 spaces." },
    "james-lanyon": { name: "Captain James Lanyon", job: "Commander of the Revenue Cruiser", deck: "official", gold: 6, rep: 3, text: "Motivate as an Action: Pay 3 Influence to seize one Goods Shape of your choice from another player's ship in a Port or Cove where you have a Network Counter. It goes to the Customs Warehouse." },
    "humphry-polglase": { name: "Squire Humphry Polglase", job: "Justice of the Peace", deck: "official", gold: 7, rep: 4, text: "Motivate when one of your Characters would be removed from the game or discarded because of another player's card: Pay 2 Influence to keep that Character." },
    "samuel-nankervis": { name: "Samuel Nankervis", job: "Tidesman of St Ives", deck: "official", gold: 4, rep: 2, text: "Motivate when you Land Goods: Reduce the Landing Risk by 2." },
    "peter-curnow": { name: "Peter Curnow", job: "Excise Gauger of Helston", deck: "official", gold: 4, rep: 2, text: "Motivate when another player Sells Goods in a town where you have a Network Counter: After the sale, that player pays you 2 Gold (or all their Gold, if they have less)." },
    "george-keast": { name: "Lieutenant George Keast", job: "Officer of the Press Gang", deck: "official", gold: 5, rep: 2, text: "Motivate as an Action: Pay 3 Influence to make another player discard one of their Unskilled Characters (they choose which)." },
    "matthew-jory": { name: "Matthew Jory", job: "Clerk of the Customs House", deck: "official", gold: 5, rep: 3, text: "Motivate as an Action: Pay 1 Influence to draw 2 Secrets Cards." },
    "niall-horabain": { name: "Niall Horabain", job: "The Minister", deck: "religious", gold: 6, rep: 2, text: "Motivate as an Action: Permanently remove 1 Reputation from a player of your choice." },
    "the-gwithian-fellowship": { name: "The Gwithian Fellowship", job: "", deck: "religious", gold: 3, rep: 1, text: "If you have no Network Counter in Gwithian, you must place this Network Counter in Gwithian. Allows Landing at Gwithian." },
    "the-witch-of-st-levan": { name: "The Witch of St Levan", job: "", deck: "religious", gold: 3, rep: 0, text: "Motivate when another player's ship moves into the sea space off St Levan: That player must either pay you 3 Gold or let you take one Goods Shape of your choice from their ship. Put a taken Goods Shape in your ship or in one of your Storehouses if it fits; otherwise return it to any Merchant Space." },
    "harry-carter": { name: "Harry Carter", job: "Smuggler turned Methodist Preacher", deck: "religious", gold: 4, rep: 2, text: "Gain +1 Reputation each time you Sell Goods at the top (free) price." },
    "josiah-pender": { name: "The Reverend Josiah Pender", job: "Curate of Zennor", deck: "religious", gold: 4, rep: 2, text: "Gain +1 Influence per turn." },
    "jacob-hosking": { name: "Jacob Hosking", job: "Sexton of Breage", deck: "religious", gold: 3, rep: 1, text: "Receive the 'St Breaca's Crypt' Storehouse." },
    "grace-trembath": { name: "Grace Trembath", job: "Methodist Class Leader", deck: "religious", gold: 3, rep: 2, text: "Motivate when you take the 'Buy Reputation' action: It costs 2 Gold instead of 4." },
    "william-kitto": { name: "William Kitto", job: "Parish Clerk of Madron", deck: "religious", gold: 2, rep: 1, text: "Motivate as an Action: Draw 1 Secrets Card." },
    "richard-uren": { name: "Richard Uren", job: "Churchwarden of St Erth", deck: "religious", gold: 3, rep: 2, text: "Gain +1 Gold per turn." },
    "arthur-jago": { name: "The Reverend Arthur Jago", job: "Vicar of St Hilary and Magistrate", deck: "religious", gold: 5, rep: 3, text: "Motivate as an Action: Pay 2 Influence to remove one Bribe Marker from any Customs Officer." },
    "the-ringers-of-st-just": { name: "The Ringers of St Just", job: "", deck: "religious", gold: 2, rep: 1, text: "Motivate when Goods of yours are about to be seized: Move one of those Goods Shapes 1 space along your network at no cost. It is not seized." },
    "walter-pascoe": { name: "The Reverend Walter Pascoe", job: "Vicar of Paul", deck: "religious", gold: 4, rep: 3, text: "Hire Character costs you 1 Gold less (to a minimum of 0 Gold)." },
    "william-bodinar": { name: "William Bodinar", job: "Fisherman", deck: "trade", gold: 3, rep: 1, text: "Motivate when taking the 'Move Ship' action to move your ship 1 extra space." },
    "holly-and-olivia": { name: "Holly & Olivia", job: "The Harbourmaster's Daughters", deck: "trade", gold: 3, rep: 2, text: "Motivate when Goods are being Landed: Pay 2 Influence to reduce or increase the Landing Risk by 2." },
    "john-carter": { name: "John Carter", job: "The King of Prussia", deck: "trade", gold: 6, rep: 3, text: "Allows Landing at Prussia Cove. You may Raid the Customs House with only one Mob Character." },
    "bessie-bussow": { name: "Bessie Bussow", job: "Alewife of Bessy's Cove", deck: "trade", gold: 3, rep: 1, text: "If you have no Network Counter at Prussia Cove, you must place this Network Counter at Prussia Cove. Allows Landing at Prussia Cove." },
    "nicholas-le-page": { name: "Nicholas Le Page", job: "Guernsey Factor", deck: "trade", gold: 4, rep: 2, text: "Motivate when you buy a Goods Shape: Pay 2 Gold less for it (to a minimum of 1 Gold)." },
    "richard-hichens": { name: "Richard Hichens", job: "Pilot of Hayle Bar", deck: "trade", gold: 4, rep: 1, text: "Allows Landing at Gwithian." },
    "elizabeth-quick": { name: "Elizabeth Quick", job: "Spirit Dealer of Helston", deck: "trade", gold: 4, rep: 2, text: "Motivate when you Sell Goods: Gain +2 Gold. (This Gold does not move the Customs Gold Counter.)" },
    "jabez-trewhella": { name: "Jabez Trewhella", job: "Packhorse Carrier of St Erth", deck: "trade", gold: 3, rep: 1, text: "Motivate as an Action: Move one Goods Shape up to 2 spaces along your network at no cost." },
    "matthew-angwin": { name: "Matthew Angwin", job: "Steward of Godolphin", deck: "trade", gold: 5, rep: 2, text: "Receive 'The Godolphin Stables' Storehouse." },
    "the-newlyn-fishwives": { name: "The Newlyn Fishwives", job: "", deck: "trade", gold: 1, rep: 0, text: "If you have no Network Counter in Newlyn, you must place this Network Counter in Newlyn. Motivate when Goods of yours are about to be seized in Newlyn, Mousehole or Penzance: Pay 2 Influence to move that Customs Officer 1 space away. The Goods are not seized." },
    "jane-wallis": { name: "Jane Wallis", job: "Landlady of the Ship Inn, Mousehole", deck: "trade", gold: 3, rep: 1, text: "Gain +1 Influence per turn." },
    "benjamin-edwards": { name: "Benjamin Edwards", job: "Tin Merchant of Helston", deck: "trade", gold: 2, rep: 2, text: "When you take the 'Honest Work' action, receive 3 extra Gold." },
    "the-hayle-underworld": { name: "The Hayle Underworld", job: "", deck: "unskilled", gold: 2, rep: 0, text: "If you have no Network Counter in Hayle, you must place this Network Counter in Hayle. Gain +1 Influence per turn." },
    "the-gentlemen-of-zennor": { name: "The Gentlemen of Zennor", job: "", deck: "unskilled", gold: 0, rep: 1, text: "If you have no Network Counter in Zennor, you must place this Network Counter in Zennor." },
    "the-wreckers-of-breage": { name: "The Wreckers of Breage", job: "", deck: "unskilled", gold: 1, rep: 0, text: "If you have no Network Counter in Breage, you must place this Network Counter in Breage. Motivate as an Action: Pay 2 Influence to take one Goods Shape (its owner chooses which) from another player's ship in a Port or Cove where you have a Network Counter. It becomes your Goods at that Port or Cove." },
    "the-tinners-of-st-just": { name: "The Tinners of St Just", job: "", deck: "unskilled", gold: 1, rep: 0, text: "If you have no Network Counter in St Just, you must place this Network Counter in St Just. Motivate when Goods are about to be seized in a location with one of your Network Counters: Pay 2 Influence to move that Customs Officer 1 space away. The Goods are not seized." },
    "the-market-jew-street-mob": { name: "The Market Jew Street Mob", job: "", deck: "unskilled", gold: 1, rep: 0, text: "If you have no Network Counter in Penzance, you must place this Network Counter in Penzance. Counts as two Mob Characters for the Raid Customs House action." },
    "dolly-pentreath": { name: "Dolly Pentreath", job: "Fish Jowster of Mousehole", deck: "unskilled", gold: 2, rep: 1, text: "Motivate as an Action: Sell one Goods Shape of size 2 in a location without a town number (a village, cove or fishing port) where you have a Network Counter, using the Size 2 town prices." },
    "loveday-nance": { name: "Loveday Nance", job: "Bal Maiden", deck: "unskilled", gold: 1, rep: 1, text: "Motivate as an Action: Move one Goods Shape 1 space along your network at no cost." },
    "silas-stevens": { name: "Silas Stevens", job: "Huer of St Ives", deck: "unskilled", gold: 1, rep: 1, text: "Motivate when you Land Goods at St Ives, Hayle or Gwithian: Reduce the Landing Risk by 3." },
    "dick-jenkin": { name: "Dick Jenkin", job: "Tubman", deck: "unskilled", gold: 2, rep: 1, text: "Moving a Goods Shape and a Network Counter together costs you 2 Influence or 4 Gold (instead of 3 Influence or 5 Gold)." },
    "ephraim-matthews": { name: "Ephraim Matthews", job: "Farmhand at Pendeen Manor", deck: "unskilled", gold: 2, rep: 1, text: "Receive the 'Pendeen Fogou' Storehouse." },
    "billy-mann": { name: "Billy Mann", job: "Pot-Boy at the Turks Head", deck: "unskilled", gold: 2, rep: 0, text: "Motivate as an Action: Pay 1 Influence to take one random Secrets Card from another player's hand." },
    "joseph-nicholls": { name: "Joseph Nicholls", job: "Lugger Hand", deck: "unskilled", gold: 1, rep: 1, text: "Motivate when taking the 'Move Ship' action: Pay 1 Gold to move your ship 1 extra space." },
  };
  // data/tracks.toml: each space of the Customs Track (a view gives only the current one)
  const TRACK = { discovery: [8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3], bribe: [3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10], new_officer: [2, 5, 8, 11, 14] };
  const SECRETS = {
    "yew-boy": { name: "Yew boy!", timing: "any-time", text: "Play when a Customs Officer is being moved: You decide where the Customs Officer moves. Discard after use." },
    "backhander": { name: "Backhander", timing: "action", text: "If you have a Network Counter in Penzance, you may purchase 1 Goods shape from the Customs Warehouse at these costs: Size 2 Good = 3 Gold, Size 3 Good = 5 Gold, Size 4 Good = 8 Gold, Size 5 Good = 12 Gold. Discard after use." },
    "drunken-distraction": { name: "Drunken Distraction", timing: "out-of-turn", text: "Play when Goods are about to be seized by Customs to move that Customs Officer 2 spaces away. The Goods are not seized. Discard one of your Characters and remove one of your Network Counters. Discard after use." },
    "sea-fret": { name: "Sea Fret", timing: "any-time", text: "Play when you Land Goods: Reduce the Landing Risk by 4. Discard after use." },
    "dark-of-the-moon": { name: "Dark of the Moon", timing: "any-time", text: "Play when you Land Goods: No Customs Officer moves because of this landing, whatever the Landing Risk. Discard after use." },
    "a-lantern-on-the-cliff": { name: "A Lantern on the Cliff", timing: "any-time", text: "Play when your ship is at a Secret Cove where you have a Network Counter: You may Land Goods there this turn without the card that allows Landing there. Discard after use." },
    "a-whisper-in-the-wrong-ear": { name: "A Whisper in the Wrong Ear", timing: "action", text: "Move up to two Customs Officers 1 space each. Discard after use." },
    "anonymous-letter": { name: "Anonymous Letter", timing: "action", text: "Choose one Goods Shape of another player's that is on the board (not in a ship or Storehouse). The nearest Customs Officer moves 2 spaces towards it. Discard after use." },
    "a-little-something-for-the-officer": { name: "A Little Something for the Officer", timing: "any-time", text: "Play when you Bribe Customs: Pay 3 Gold less (to a minimum of 0 Gold). Discard after use." },
    "fair-wind": { name: "Fair Wind", timing: "action", text: "Move your ship up to 3 spaces. Discard after use." },
    "becalmed": { name: "Becalmed", timing: "any-time", text: "Choose another player's ship. It cannot move until the end of this Turn. Discard after use." },
    "mock-funeral": { name: "Mock Funeral", timing: "action", text: "Move one Goods Shape up to 3 spaces along your network. Customs Officers in the spaces it passes through do not seize it; it can still be seized where it stops. Discard after use." },
    "the-old-packhorse-road": { name: "The Old Packhorse Road", timing: "any-time", text: "Play when you place a new Network Counter: Place it in any land space, even one not connected to your network. Discard after use." },
    "friends-in-high-places": { name: "Friends in High Places", timing: "any-time", text: "Gain 2 Influence. Discard after use." },
    "light-fingers": { name: "Light Fingers", timing: "action", text: "Take one Goods Shape belonging to another player from a location where you have a Network Counter (not from a ship or Storehouse). It is now your Goods. Discard after use." },
    "under-the-floorboards": { name: "Under the Floorboards", timing: "out-of-turn", text: "Play when Goods of yours are about to be seized by Customs: Move one of those Goods Shapes 1 space along your network. It is not seized. Discard after use." },
    "forged-cocket": { name: "Forged Cocket", timing: "any-time", text: "Play when you Sell Goods: Take the bottom-row price without paying its cost. Discard after use." },
  };

  // ---- the drawing's layout: positions on a 1000 x 640 map, label placement [dx, dy, anchor] ----------
  const W = 1000, H = 640;
  const POS = {
    "scilly": [78, 352], "sennen": [242, 372], "st-levan": [292, 446], "st-just": [258, 268], "pendeen": [322, 205],
    "zennor": [412, 180], "st-ives": [560, 152], "nancledra": [492, 246], "lelant": [616, 200], "hayle": [674, 212],
    "gwithian": [732, 152], "st-erth": [668, 286], "madron": [410, 308], "penzance": [470, 388], "newlyn": [418, 414],
    "mousehole": [366, 446], "ludgvan": [560, 320], "marazion": [562, 410], "perranuthnoe": [628, 440],
    "prussia-cove": [712, 478], "goldsithney": [664, 372], "breage": [784, 432], "godolphin": [792, 352],
    "leedstown": [772, 272], "porthleven": [848, 482], "helston": [892, 400], "up-north": [930, 228],
    "north-coast": [318, 88], "st-ives-bay": [652, 96], "off-st-levan": [196, 500], "scilly-sound": [96, 472],
    "mounts-bay-west": [420, 530], "mounts-bay-east": [652, 548],
    "ireland": [545, 40], "guernsey": [112, 600], "roscoff": [820, 602],
  };
  const LABEL = {
    "scilly": [0, -34, "middle"], "sennen": [-26, 6, "end"], "st-just": [-24, 6, "end"], "pendeen": [0, 24, "middle"],
    "zennor": [0, 24, "middle"], "st-ives": [-28, -6, "end"], "gwithian": [26, 5, "start"], "hayle": [26, 8, "start"],
    "lelant": [0, 24, "middle"], "penzance": [-24, 0, "end"], "newlyn": [-16, -10, "end"], "mousehole": [8, 26, "start"],
    "st-levan": [0, 26, "middle"], "marazion": [-24, 12, "end"], "perranuthnoe": [0, 24, "middle"],
    "goldsithney": [16, 5, "start"], "prussia-cove": [0, 30, "middle"], "porthleven": [0, 36, "middle"],
    "helston": [0, 40, "middle"], "up-north": [0, 42, "middle"], "madron": [-26, 6, "end"], "nancledra": [0, 24, "middle"],
    "ludgvan": [0, 24, "middle"], "st-erth": [0, 24, "middle"], "breage": [0, 24, "middle"], "godolphin": [0, 24, "middle"],
    "leedstown": [0, 24, "middle"],
  };
  // the mainland's coast, clockwise from Cape Cornwall; the east edge is the rest of the county
  const COAST = [[236, 262], [262, 212], [298, 180], [356, 160], [410, 150], [470, 142], [528, 130], [560, 116],
    [586, 132], [600, 166], [634, 178], [664, 180], [694, 168], [716, 134], [748, 120], [810, 124], [880, 130],
    [960, 136], [1010, 140], [1010, 560], [950, 528], [890, 512], [846, 510], [800, 498], [752, 504], [712, 502],
    [676, 478], [634, 462], [596, 444], [560, 434], [518, 424], [484, 410], [452, 414], [426, 432], [398, 456],
    [366, 474], [322, 484], [282, 480], [246, 462], [222, 428], [212, 392], [214, 350], [222, 300]];
  const COLOURS = ["#c0392b", "#2166ac", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e"];
  const DECK_COLOURS = { religious: "#6c4f8f", trade: "#2f6f6a", unskilled: "#8a5a2b", official: "#1f3b63" };
  const SEA_FILL = "#bcd8e6";

  // ---- small helpers --------------------------------------------------------------------------------
  const arr = (x) => (Array.isArray(x) ? x : []);
  const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
  const num = (x, d) => (typeof x === "number" && isFinite(x) ? x : d);
  function nice(id) {
    return String(id === null || id === undefined ? "" : id).replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  }
  function nameOf(id) {
    const t = LOCS[id] || SEAS[id] || CHARS[id] || SECRETS[id] || SHIPS[id] || STORES[id];
    return t ? t.name : nice(id);
  }
  function colour(seat) { return seat === null || seat === undefined || seat < 0 ? "#8c8c8c" : COLOURS[seat % COLOURS.length]; }
  function words(text, width, max) {
    const out = [];
    let line = "";
    for (const w of String(text || "").split(/\s+/)) {
      if (!w) continue;
      if (line && (line + " " + w).length > width) { out.push(line); line = w; } else line = line ? line + " " + w : w;
    }
    if (line) out.push(line);
    if (max && out.length > max) { out.length = max; out[max - 1] = out[max - 1].replace(/.{0,2}$/, "…"); }
    return out;
  }
  function who(ctx, seat) {
    const s = ctx.table && ctx.table.seats ? ctx.table.seats[seat] : null;
    if (seat === ctx.seat) return (s && s.name ? s.name : "Seat " + seat) + " (you)";
    if (s && s.kind && s.kind !== "human") return "Seat " + seat + " (" + s.kind + " bot)";
    if (s && s.name) return s.name + " (seat " + seat + ")";
    return "Seat " + seat;
  }

  // notation: <verb> [<item>] [to <place>] [with <payment>]
  const NOTATION = /^(\S+)(?: (\S+))?(?: to (\S+))?(?: with (\S+))?$/;
  function parse(n) {
    const m = NOTATION.exec(String(n).trim());
    return m ? { verb: m[1], item: m[2] || "", to: m[3] || "", pay: m[4] || "" } : { verb: String(n), item: "", to: "", pay: "" };
  }
  const isPlace = (id) => !!(LOCS[id] || SEAS[id]);
  // the thing on the board a legal move is about, as a key: place, goods, character, officer, ship, storehouse, deck, secret
  function targetOf(n) {
    const a = parse(n);
    if (a.to && isPlace(a.to)) return "p:" + a.to;
    if (a.item && isPlace(a.item)) return "p:" + a.item;
    if (/^g\d+$/.test(a.item)) return "g:" + a.item;
    if (/^\d+$/.test(a.item) && !a.to) return "o:" + a.item;
    if (CHARS[a.item] || a.verb === "hire" || a.verb === "keep" || a.verb === "motivate") return "c:" + a.item;
    if (SHIPS[a.item] || a.verb === "ship") return "s:" + a.item;
    if (STORES[a.item] || a.verb === "storehouse") return "h:" + a.item;
    if (a.verb === "draw") return "d:" + a.item;
    if (SECRETS[a.item] || a.verb === "play") return "x:" + a.item;
    return null;
  }
  const byTarget = (legal) => FT.byTarget(legal, targetOf);

  function goodsName(view, gid) {
    const g = arr(view && view.goods).find((x) => x && x.id === gid);
    return g ? nice(g.shape) + " (" + g.size + ")" : gid;
  }
  function label(n, view) {
    const a = parse(n);
    const verb = a.verb.charAt(0).toUpperCase() + a.verb.slice(1).replace(/-/g, " ");
    let item = a.item;
    if (/^g\d+$/.test(item)) item = goodsName(view, item);
    else if (/^\d+$/.test(item)) item = "officer " + item;
    else if (item) item = nameOf(item);
    let text = verb + (item ? " " + item : "") + (a.to ? " → " + nameOf(a.to) : "");
    if (a.pay) text += " (" + a.pay + ")";
    return text;
  }

  // ---- packing Goods Shapes into a hold grid (rotated, never flipped), only to draw them -------------
  function cellsOf(rows) {
    const out = [];
    arr(rows).forEach((row, r) => String(row).split("").forEach((ch, c) => { if (ch === "#") out.push([r, c]); }));
    return out;
  }
  function orientations(cells) {
    const seen = new Set(), out = [];
    let cur = cells;
    for (let i = 0; i < 4; i++) {
      const r0 = Math.min(...cur.map((p) => p[0])), c0 = Math.min(...cur.map((p) => p[1]));
      const n = cur.map((p) => [p[0] - r0, p[1] - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const key = n.map((p) => p.join(",")).join(";");
      if (!seen.has(key)) { seen.add(key); out.push(n); }
      cur = cur.map((p) => [p[1], -p[0]]);
    }
    return out;
  }
  // pieces: [{id, cells}] -> {id: [[r, c], ...]} or null when no packing is found quickly
  function pack(holdRows, pieces) {
    const free = new Set(cellsOf(holdRows).map((p) => p.join(",")));
    const order = pieces.slice().sort((a, b) => b.cells.length - a.cells.length);
    const placed = {};
    let budget = 20000;
    function go(i) {
      if (i === order.length) return true;
      if (--budget < 0) return false;
      const piece = order[i];
      for (const o of orientations(piece.cells)) {
        for (const f of Array.from(free)) {
          const [fr, fc] = f.split(",").map(Number);
          const dr = fr - o[0][0], dc = fc - o[0][1];
          const keys = o.map((p) => (p[0] + dr) + "," + (p[1] + dc));
          if (!keys.every((k) => free.has(k))) continue;
          keys.forEach((k) => free.delete(k));
          placed[piece.id] = keys.map((k) => k.split(",").map(Number));
          if (go(i + 1)) return true;
          keys.forEach((k) => free.add(k));
          delete placed[piece.id];
        }
      }
      return false;
    }
    return go(0) ? placed : null;
  }

  // ---- hot-spots: one legal move plays at once; several open a small chooser above the board ----------
  const makeHot = (node, keys, hot, ctx, picker, what) => FT.makeHot(node, keys, hot, ctx, picker, what, label);
  const chooser = (box, ctx) => FT.chooser(box, ctx, label);

  // ---- pieces ---------------------------------------------------------------------------------------
  function goodsSquare(x, y, g, s) {
    const fill = g && g.owner >= 0 ? colour(g.owner) : "#d9c79a";
    const grp = S("g", { class: "goods", transform: `translate(${x},${y})` });
    grp.append(S("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 2, fill, stroke: "#3b2f1e", "stroke-width": 1.2 }));
    grp.append(S("text", { x: 0, y: s * 0.32, "text-anchor": "middle", class: "goods-size", "font-size": s * 0.78,
      fill: g && g.owner >= 0 ? "#fff" : "#2a2118", text: g ? g.size : "?" }));
    grp.append(S("title", { text: g ? nice(g.shape) + " " + g.id + ", size " + g.size + (g.owner >= 0 ? ", seat " + g.owner + "'s" : "") : "goods" }));
    return grp;
  }
  function officerPiece(x, y, o) {
    const g = S("g", { class: "officer", transform: `translate(${x},${y})` });
    const bribed = num(o.bribed_by, -1) >= 0;
    if (bribed) g.append(S("circle", { cx: 0, cy: -2, r: 12, fill: "none", stroke: colour(o.bribed_by), "stroke-width": 4 }));
    g.append(S("path", { d: "M-7 9 L-4 -1 L4 -1 L7 9 Z", fill: "#111" }), S("circle", { cx: 0, cy: -6, r: 5, fill: "#111" }));
    g.append(S("title", { text: "Customs Officer " + o.id + (bribed ? ", bribed by seat " + o.bribed_by : "") }));
    return g;
  }
  function boat(x, y, seat, name) {
    const g = S("g", { class: "ship", transform: `translate(${x},${y})` });
    g.append(S("path", { d: "M-15 2 L15 2 L10 10 L-10 10 Z", fill: colour(seat), stroke: "#222", "stroke-width": 1.2 }));
    g.append(S("path", { d: "M-1 0 L-1 -16 L10 0 Z", fill: "#fffaf0", stroke: "#222", "stroke-width": 1 }));
    g.append(S("text", { x: -7, y: -3, "text-anchor": "middle", class: "ship-seat", text: seat }));
    g.append(S("title", { text: name + " (seat " + seat + ")" }));
    return g;
  }

  // ---- the map --------------------------------------------------------------------------------------
  function smooth(points) {
    // a closed Catmull-Rom curve through the coast points
    const n = points.length;
    let d = `M${points[0][0]},${points[0][1]}`;
    for (let i = 0; i < n; i++) {
      const p0 = points[(i - 1 + n) % n], p1 = points[i], p2 = points[(i + 1) % n], p3 = points[(i + 2) % n];
      const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
      const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
      d += ` C${c1[0].toFixed(1)},${c1[1].toFixed(1)} ${c2[0].toFixed(1)},${c2[1].toFixed(1)} ${p2[0]},${p2[1]}`;
    }
    return d + " Z";
  }

  function drawMap(view, ctx, hot, picker) {
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg cornish-map", role: "group", "aria-label": "Map of West Cornwall" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, fill: SEA_FILL }));
    svg.append(S("path", { d: smooth(COAST), fill: "#ece3c8", stroke: "#8a7a55", "stroke-width": 2.5 }));
    // the Isles of Scilly: a scatter of islands
    for (const [dx, dy, rx, ry] of [[-8, -6, 22, 14], [16, 10, 12, 8], [-22, 14, 9, 6], [6, -22, 8, 5]]) {
      svg.append(S("ellipse", { cx: POS.scilly[0] + dx, cy: POS.scilly[1] + dy, rx, ry, fill: "#ece3c8", stroke: "#8a7a55", "stroke-width": 2 }));
    }
    svg.append(S("text", { x: 560, y: 505, class: "water", "text-anchor": "middle", text: "Mount's Bay" }));
    svg.append(S("text", { x: 150, y: 250, class: "water", "text-anchor": "middle", text: "Land's End" }));

    // sea lanes: between sea spaces and from each port or cove to its sea space
    const lanes = S("g", { class: "lanes" });
    const seen = new Set();
    const lane = (a, b) => {
      const k = [a, b].sort().join("|");
      if (seen.has(k) || !POS[a] || !POS[b]) return;
      seen.add(k);
      lanes.append(S("line", { x1: POS[a][0], y1: POS[a][1], x2: POS[b][0], y2: POS[b][1], stroke: "#4f86a8", "stroke-width": 2.2, "stroke-dasharray": "7 6" }));
    };
    for (const [id, s] of Object.entries(SEAS)) for (const b of s.adj) lane(id, b);
    for (const [id, l] of Object.entries(LOCS)) for (const b of l.sea) lane(id, b);
    svg.append(lanes);
    // roads
    const roads = S("g", { class: "roads" });
    const seenRoad = new Set();
    for (const [id, l] of Object.entries(LOCS)) {
      for (const b of l.land) {
        const k = [id, b].sort().join("|");
        if (seenRoad.has(k) || !POS[id] || !POS[b]) continue;
        seenRoad.add(k);
        roads.append(S("line", { x1: POS[id][0], y1: POS[id][1], x2: POS[b][0], y2: POS[b][1], stroke: "#9b7b4b", "stroke-width": 3.5, "stroke-linecap": "round" }));
      }
    }
    if (POS["up-north"]) {  // the road on up the county
      const [x, y] = POS["up-north"];
      roads.append(S("path", { d: `M${x} ${y} L${x + 50} ${y - 40} m-15 1 l15 -1 l-2 15`, stroke: "#9b7b4b", "stroke-width": 3.5, fill: "none", "stroke-linecap": "round" }));
    }
    svg.append(roads);

    // sea spaces and the Merchants
    const goods = arr(view.goods).filter((g) => g && typeof g === "object");
    for (const [id, s] of Object.entries(SEAS)) {
      const [x, y] = POS[id] || [0, 0];
      if (!POS[id]) continue;
      const g = S("g", { class: "sea-node" + (s.merchant ? " merchant" : ""), "data-place": id });
      if (s.merchant) {
        const here = goods.filter((x2) => x2.where === "merchant" && x2.at === id);
        const w = Math.max(170, here.length * 18 + 16);
        g.append(S("rect", { x: x - w / 2, y: y - 28, width: w, height: 56, rx: 10, fill: "#f5efe0", stroke: "#6b5a3a", "stroke-width": 2, class: "node-shape" }));
        g.append(S("text", { x, y: y - 10, "text-anchor": "middle", class: "merchant-name", text: s.name }));
        here.forEach((gd, i) => {
          const sq = goodsSquare(x - (here.length - 1) * 9 + i * 18, y + 12, gd, 16);
          makeHot(sq, "g:" + gd.id, hot, ctx, picker, "Goods " + goodsName(view, gd.id));
          g.append(sq);
        });
        if (!here.length) g.append(S("text", { x, y: y + 16, "text-anchor": "middle", class: "small", text: "sold out" }));
      } else {
        g.append(S("circle", { cx: x, cy: y, r: 20, fill: "#e3f0f6", stroke: "#4f86a8", "stroke-width": 2, class: "node-shape" }));
        const lines = words(s.name, 16, 2);
        lines.forEach((t, i) => g.append(S("text", { x, y: y + 34 + i * 14, "text-anchor": "middle", class: "sea-name", text: t })));
      }
      const hit = s.merchant ? S("rect", { x: x - 85, y: y - 28, width: 170, height: 22, fill: "transparent" }) : S("circle", { cx: x, cy: y, r: 22, fill: "transparent" });
      if (makeHot(hit, "p:" + id, hot, ctx, picker, s.name)) g.classList.add("hot");
      g.append(hit);
      svg.append(g);
    }

    // land locations
    for (const [id, l] of Object.entries(LOCS)) {
      if (!POS[id]) continue;
      const [x, y] = POS[id];
      const g = S("g", { class: "loc " + l.kind, "data-place": id });
      const r = l.size ? 17 : (l.kind === "village" ? 8 : 12);
      if (l.kind === "cove") {
        g.append(S("circle", { cx: x, cy: y, r: r + 5, fill: "none", stroke: "#2b5d7a", "stroke-width": 2.2, "stroke-dasharray": "2 4", "stroke-linecap": "round" }));
      }
      g.append(S("circle", { cx: x, cy: y, r, class: "node-shape", fill: l.size ? "#fffaf0" : (l.kind === "village" ? "#6e5a3a" : "#fffaf0"),
        stroke: l.kind === "port" || l.kind === "island" || l.kind === "cove" ? "#2b5d7a" : "#4a3b22", "stroke-width": l.size ? 3 : 2 }));
      if (l.size) g.append(S("text", { x, y: y + 6, "text-anchor": "middle", class: "loc-size", text: l.size }));
      if (l.risk) {
        g.append(S("rect", { x: x + r * 0.55, y: y - r - 10, width: 24, height: 17, rx: 8, fill: "#2b5d7a" }));
        g.append(S("text", { x: x + r * 0.55 + 12, y: y - r + 3, "text-anchor": "middle", class: "loc-risk", text: "+" + l.risk }));
      }
      const [dx, dy, anchor] = LABEL[id] || [0, r + 16, "middle"];
      g.append(S("text", { x: x + dx, y: y + dy, "text-anchor": anchor, class: "loc-name" + (l.size ? " town" : ""), text: l.name }));
      const kindText = { town: "town", village: "village", port: "port", cove: "Secret Cove", island: "island port" }[l.kind] || l.kind;
      g.append(S("title", { text: l.name + " — " + kindText + (l.size ? ", sells size " + l.size : "") + (l.risk ? ", landing risk +" + l.risk : "") }));
      const hit = S("circle", { cx: x, cy: y, r: Math.max(r + 6, 18), fill: "transparent" });
      if (makeHot(hit, "p:" + id, hot, ctx, picker, l.name)) g.classList.add("hot");
      g.append(hit);
      svg.append(g);
    }

    // pieces on land: one row above each location (Network Counters, Customs Officers, Goods)
    const row = {};
    const add = (loc, kind, item) => { if (POS[loc]) (row[loc] = row[loc] || []).push([kind, item]); };
    arr(view.players).forEach((p, seat) => arr(p && p.counters).forEach((loc) => add(loc, "counter", seat)));
    arr(view.officers).forEach((o) => { if (o && o.at) add(o.at, "officer", o); });
    goods.forEach((g) => { if (g.where === "land") add(g.at, "goods", g); });
    for (const [loc, items] of Object.entries(row)) {
      const [x, y] = POS[loc];
      const l = LOCS[loc] || {};
      const r = l.size ? 17 : (l.kind === "village" ? 8 : 12);
      const step = 17, perRow = 5;
      items.forEach(([kind, item], i) => {
        const inRow = Math.min(perRow, items.length - Math.floor(i / perRow) * perRow);
        const px = x - (l.risk ? 10 : 0) - ((inRow - 1) * step) / 2 + (i % perRow) * step;
        const py = y - r - 12 - Math.floor(i / perRow) * 19;
        if (kind === "counter") {
          const c = S("circle", { cx: px, cy: py, r: 7, fill: colour(item), stroke: "#fff", "stroke-width": 2, class: "counter" });
          c.append(S("title", { text: "Network Counter of seat " + item + " at " + nameOf(loc) }));
          svg.append(c);
        } else if (kind === "officer") {
          const piece = officerPiece(px, py, item);
          makeHot(piece, "o:" + item.id, hot, ctx, picker, "Customs Officer " + item.id);
          svg.append(piece);
        } else {
          const sq = goodsSquare(px, py, item, 15);
          makeHot(sq, "g:" + item.id, hot, ctx, picker, "Goods " + goodsName(view, item.id));
          svg.append(sq);
        }
      });
    }
    const warehouse = goods.filter((g) => g.where === "warehouse");
    if (warehouse.length && POS.penzance) {
      const [x, y] = POS.penzance;
      const t = S("g", { class: "warehouse" });
      t.append(S("rect", { x: x + 22, y: y + 12, width: 128, height: 22, rx: 6, fill: "#1f3b63" }));
      t.append(S("text", { x: x + 86, y: y + 27, "text-anchor": "middle", class: "warehouse-text", text: "Customs House: " + warehouse.length }));
      t.append(S("title", { text: "Seized goods in the Customs Warehouse: " + warehouse.map((g) => nice(g.shape) + " (" + g.size + ")").join(", ") }));
      warehouse.forEach((gd) => { const sq = S("g"); if (makeHot(sq, "g:" + gd.id, hot, ctx, picker, "Seized goods " + goodsName(view, gd.id))) { sq.append(S("rect", { x: x + 22, y: y + 12, width: 128, height: 22, fill: "transparent" })); t.append(sq); } });
      svg.append(t);
    }
    // ships: at a sea space around it, at a port or cove just off the coast
    const shipsAt = {};
    arr(view.players).forEach((p, seat) => { if (p && p.ship_at) (shipsAt[p.ship_at] = shipsAt[p.ship_at] || []).push(seat); });
    for (const [at, seats] of Object.entries(shipsAt)) {
      if (!POS[at]) continue;
      let [x, y] = POS[at];
      if (LOCS[at] && LOCS[at].sea.length && POS[LOCS[at].sea[0]]) {
        const [sx, sy] = POS[LOCS[at].sea[0]];
        const d = Math.hypot(sx - x, sy - y) || 1;
        x += ((sx - x) / d) * 44; y += ((sy - y) / d) * 44;
      } else y -= 30;
      seats.forEach((seat, i) => {
        const p = view.players[seat];
        svg.append(boat(x + (i - (seats.length - 1) / 2) * 32, y, seat, (SHIPS[p.ship] || {}).name || nice(p.ship)));
      });
    }
    // the landing in progress
    const landing = obj(view.landing);
    if (landing.at && POS[landing.at]) {
      const [x, y] = POS[landing.at];
      svg.append(S("circle", { cx: x, cy: y, r: 30, fill: "none", stroke: "#d35400", "stroke-width": 3, "stroke-dasharray": "6 4", class: "landing" }));
    }
    // heading and the tracks in brief
    const c = obj(view.customs);
    const head = [`Turn ${num(view.turn, "?")}`, `phase: ${view.phase || "?"}`];
    if (view.first_player !== undefined && view.first_player !== null) head.push(`first player: seat ${view.first_player}`);
    if (view.ending) head.push("last round");
    svg.append(S("text", { x: 12, y: 24, class: "map-head", text: head.join(" · ") }));
    svg.append(S("text", { x: W - 12, y: 24, "text-anchor": "end", class: "map-head", text: `Discovery Level ${num(c.discovery, "?")} · Bribe Cost ${num(c.bribe, "?")}` }));
    if (landing.at) svg.append(S("text", { x: W - 12, y: 46, "text-anchor": "end", class: "map-sub", text: `Landing at ${nameOf(landing.at)}: ${arr(landing.goods).length} goods` }));
    // legend
    const lg = S("g", { class: "legend", transform: "translate(262,572)" });
    lg.append(S("circle", { cx: 0, cy: 0, r: 9, fill: "#fffaf0", stroke: "#4a3b22", "stroke-width": 2.5 }), S("text", { x: 16, y: 5, class: "small", text: "town: size" }));
    lg.append(S("rect", { x: -10, y: 14, width: 22, height: 15, rx: 7, fill: "#2b5d7a" }), S("text", { x: 16, y: 26, class: "small", text: "port: risk" }));
    lg.append(S("circle", { cx: 0, cy: 44, r: 9, fill: "none", stroke: "#2b5d7a", "stroke-width": 2, "stroke-dasharray": "2 3" }), S("text", { x: 16, y: 49, class: "small", text: "Secret Cove" }));
    svg.append(lg);
    return svg;
  }

  // ---- holds: a ship's or a storehouse's grid with the Goods Shapes packed into it --------------------
  function pieceFill(gid) {
    const n = parseInt(String(gid).replace(/\D/g, ""), 10) || 0;
    return `hsl(${(n * 47) % 360}, 55%, 62%)`;
  }
  function drawHold(parent, x, y, rows, inside, cell, view, ctx, hot, picker) {
    rows = arr(rows);
    const g = S("g", { class: "hold", transform: `translate(${x},${y})` });
    const cells = cellsOf(rows);
    const width = Math.max(1, ...rows.map((r) => String(r).length)) * cell;
    const height = Math.max(1, rows.length) * cell;
    for (const [r, c] of cells) g.append(S("rect", { x: c * cell, y: r * cell, width: cell, height: cell, fill: "#f7f1e1", stroke: "#a8997a", "stroke-width": 1 }));
    const pieces = inside.map((gd) => ({ id: gd.id, cells: cellsOf(SHAPES[gd.shape] || []) })).filter((p) => p.cells.length);
    const placed = cells.length && pieces.length === inside.length ? pack(rows, pieces) : null;
    let extraH = 0;
    inside.forEach((gd, i) => {
      const pg = S("g", { class: "piece" });
      const at = placed && placed[gd.id];
      if (at) {
        for (const [r, c] of at) pg.append(S("rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2, rx: 2, fill: pieceFill(gd.id), stroke: "#3b2f1e", "stroke-width": 1 }));
        const [r0, c0] = at[0];
        pg.append(S("text", { x: c0 * cell + cell / 2, y: r0 * cell + cell * 0.72, "text-anchor": "middle", class: "piece-size", "font-size": cell * 0.62, text: gd.size }));
        pg.append(S("title", { text: nice(gd.shape) + " " + gd.id + ", size " + gd.size }));
      } else {  // no drawing of its place: a square beside the grid
        pg.append(goodsSquare(width + 12 + (i % 4) * (cell + 2), cell / 2 + Math.floor(i / 4) * (cell + 2), gd, cell - 2));
        extraH = Math.max(extraH, (Math.floor(i / 4) + 1) * (cell + 2));
      }
      makeHot(pg, "g:" + gd.id, hot, ctx, picker, "Goods " + goodsName(view, gd.id));
      g.append(pg);
    });
    parent.append(g);
    return { width: width + (placed || !inside.length ? 0 : 4 * (cell + 2) + 12), height: Math.max(height, extraH) };
  }

  function stat(g, x, y, fill, letter, value, title) {
    const s = S("g", { transform: `translate(${x},${y})` });
    s.append(S("circle", { cx: 10, cy: 0, r: 10, fill }), S("text", { x: 10, y: 4.5, "text-anchor": "middle", class: "stat-letter", text: letter }));
    s.append(S("text", { x: 25, y: 6, class: "stat-value", text: value }), S("title", { text: title + ": " + value }));
    g.append(s);
  }

  function playerPanel(view, ctx, seat, hot, picker) {
    const p = obj(arr(view.players)[seat]);
    const goods = arr(view.goods).filter((g) => g && typeof g === "object");
    const byId = new Map(goods.map((g) => [g.id, g]));
    const acting = view.to_act === seat;
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel" + (acting ? " acting" : ""), role: "group", "aria-label": "Seat " + seat, "data-seat": seat });
    const body = S("g");
    body.append(S("rect", { x: 0, y: 0, width: PW, height: 34, fill: colour(seat) }));
    const tags = [];
    if (acting) tags.push("to act");
    if (p.passed) tags.push("passed");
    if (view.first_player === seat) tags.push("first player");
    body.append(S("text", { x: 12, y: 23, class: "panel-name", text: who(ctx, seat) }));
    body.append(S("text", { x: PW - 12, y: 23, "text-anchor": "end", class: "panel-tags", text: tags.join(" · ") }));
    stat(body, 12, 56, "#d6a530", "G", num(p.gold, "?"), "Gold");
    stat(body, 92, 56, "#5b7fb5", "I", num(p.influence, "?"), "Influence");
    stat(body, 172, 56, "#3f8f5a", "R", num(p.reputation, "?"), "Reputation");
    body.append(S("text", { x: 256, y: 62, class: "panel-small", text: `${arr(p.counters).length} counters · ${num(p.secrets, 0)} secret${p.secrets === 1 ? "" : "s"}` }));
    // the ship and its hold
    let y = 84, x = 12, rowH = 0;
    const ship = SHIPS[p.ship];
    const holdGoods = arr(p.hold).map((id) => byId.get(id) || { id, shape: "", size: "?", owner: seat });
    if (p.ship) {
      body.append(S("text", { x, y, class: "panel-label", text: ship ? ship.name : nice(p.ship) }));
      body.append(S("text", { x, y: y + 14, class: "panel-small", text: p.ship_at ? "at " + nameOf(p.ship_at) : "not at sea" }));
      const d = drawHold(body, x, y + 22, ship ? ship.hold : [], holdGoods, 22, view, ctx, hot, picker);
      rowH = d.height + 28;
      x += Math.max(d.width, 7 * Math.max((ship ? ship.name : String(p.ship)).length, 10), 6.3 * (3 + (p.ship_at ? nameOf(p.ship_at) : "not at sea").length)) + 20;
    } else {
      body.append(S("text", { x, y, class: "panel-small", text: "no ship yet" }));
      x += 150;
      rowH = 10;
    }
    // storehouses
    for (const sid of arr(p.storehouses)) {
      const st = STORES[sid];
      const inside = goods.filter((g) => g.where === "storehouse" && g.at === sid);
      const w = st ? Math.max(...st.hold.map((r) => r.length)) * 18 : 60;
      if (x + Math.max(w, (st ? st.name : String(sid)).length * 7.2) > PW - 8) { x = 12; y += rowH + 16; rowH = 0; }
      const title = S("text", { x, y, class: "panel-label", text: st ? st.name : nice(sid) });
      title.append(S("title", { text: (st ? st.name + ", " + nameOf(st.at) : nice(sid)) }));
      body.append(title);
      body.append(S("text", { x, y: y + 14, class: "panel-small", text: st ? nameOf(st.at) : "" }));
      const d = drawHold(body, x, y + 22, st ? st.hold : [], inside, 18, view, ctx, hot, picker);
      rowH = Math.max(rowH, d.height + 28);
      x += Math.max(d.width, (st ? st.name : String(sid)).length * 7.2, 90) + 18;
    }
    y += rowH + 18;
    // hired characters
    const chars = arr(p.characters);
    body.append(S("text", { x: 12, y, class: "panel-label", text: chars.length ? "Characters" : "No characters hired" }));
    y += 8;
    chars.forEach((cid, i) => {
      const ch = CHARS[cid];
      const cx = 12 + (i % 2) * 240, cy = y + Math.floor(i / 2) * 26;
      const cg = S("g", { class: "char-chip", transform: `translate(${cx},${cy})` });
      cg.append(S("rect", { x: 0, y: 0, width: 232, height: 22, rx: 5, fill: "#fffaf0", stroke: ch ? DECK_COLOURS[ch.deck] || "#666" : "#666", "stroke-width": 1.5 }));
      cg.append(S("rect", { x: 0, y: 0, width: 7, height: 22, rx: 2, fill: ch ? DECK_COLOURS[ch.deck] || "#666" : "#666" }));
      cg.append(S("text", { x: 13, y: 15.5, class: "chip-name", text: words(ch ? ch.name : nice(cid), 30, 1)[0] }));
      cg.append(S("title", { text: ch ? ch.name + (ch.job ? ", " + ch.job : "") + ": " + ch.text : nice(cid) }));
      makeHot(cg, "c:" + cid, hot, ctx, picker, ch ? ch.name : nice(cid));
      body.append(cg);
    });
    y += Math.ceil(chars.length / 2) * 26 + 6;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: acting ? "#d6a530" : "#c9bb9b", "stroke-width": acting ? 4 : 2 }));
    svg.append(body);
    return svg;
  }

  function card(x, y, w, h, head, title, sub, text, extra) {
    const g = S("g", { class: "card", transform: `translate(${x},${y})` });
    g.append(S("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "#fffaf0", stroke: head, "stroke-width": 2, class: "card-rect" }));
    g.append(S("rect", { x: 0, y: 0, width: w, height: 18, rx: 6, fill: head }));
    if (extra) g.append(S("text", { x: w / 2, y: 13, "text-anchor": "middle", class: "card-head", text: extra }));
    let yy = 34;
    for (const line of words(title, Math.floor(w / 8.2), 2)) { g.append(S("text", { x: 6, y: yy, class: "card-title", text: line })); yy += 14; }
    for (const line of words(sub, Math.floor(w / 6.4), 2)) { g.append(S("text", { x: 6, y: yy, class: "card-sub", text: line })); yy += 12; }
    yy += 3;
    const room = Math.max(0, Math.floor((h - yy - 4) / 11.5));
    for (const line of words(text, Math.floor(w / 5.6), room)) { g.append(S("text", { x: 6, y: yy, class: "card-text", text: line })); yy += 11.5; }
    g.append(S("title", { text: [title, sub, text].filter(Boolean).join(" — ") }));
    return g;
  }

  function charactersPanel(view, ctx, hot, picker) {
    const chars = obj(view.characters);
    const faceUp = obj(chars.face_up), stacks = obj(chars.stacks);
    const decks = Array.from(new Set(Object.keys(DECK_COLOURS).concat(Object.keys(faceUp), Object.keys(stacks))));
    const PW = 500, cw = 116, ch = 176;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Characters" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Characters for hire" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: `${num(chars.discarded, 0)} discarded` }));
    decks.slice(0, 4).forEach((deck, i) => {
      const x = 10 + i * (cw + 6), y = 34;
      const cid = faceUp[deck];
      const c = CHARS[cid];
      let node;
      if (cid) {
        node = card(x, y, cw, ch, DECK_COLOURS[deck] || "#666", c ? c.name : nice(cid), c ? c.job : "", c ? c.text : "", nice(deck));
        if (c) node.append(S("text", { x: 6, y: ch - 7, class: "card-cost", text: `${c.gold} Gold · ${c.rep} Rep` }));
        makeHot(node, "c:" + cid, hot, ctx, picker, "Hire " + (c ? c.name : nice(cid)));
      } else {
        node = S("g", { transform: `translate(${x},${y})` });
        node.append(S("rect", { x: 0, y: 0, width: cw, height: ch, rx: 7, fill: "#eee7d8", stroke: "#b5a98e", "stroke-dasharray": "5 4" }));
        node.append(S("text", { x: cw / 2, y: ch / 2, "text-anchor": "middle", class: "panel-small", text: "none face up" }));
      }
      body.append(node);
      const st = S("g", { transform: `translate(${x},${y + ch + 6})` });
      st.append(S("rect", { x: 0, y: 0, width: cw, height: 22, rx: 5, fill: DECK_COLOURS[deck] || "#666", opacity: 0.85 }));
      st.append(S("text", { x: cw / 2, y: 15.5, "text-anchor": "middle", class: "card-head", text: `${nice(deck)} stack: ${num(stacks[deck], 0)}` }));
      makeHot(st, "d:" + deck, hot, ctx, picker, "Draw from the " + deck + " stack");
      body.append(st);
    });
    let y = 34 + ch + 40;
    // the set-up draw: the cards you drew (yours only) and who is drawing
    const drawing = obj(view.drawing);
    const drawn = arr(view.your_drawn);
    if (drawn.length || drawing.stacks) {
      body.append(S("text", { x: 12, y, class: "panel-label", text: drawn.length ? "You drew — keep one:" : `Seat ${drawing.seat} is drawing (${arr(drawing.stacks).join(", ")})` }));
      y += 8;
      drawn.forEach((cid, i) => {
        const c = CHARS[cid];
        const node = card(10 + i * (cw + 6), y, cw, ch, c ? DECK_COLOURS[c.deck] || "#666" : "#666", c ? c.name : nice(cid), c ? c.job : "", c ? c.text : "", c ? nice(c.deck) : "");
        makeHot(node, "c:" + cid, hot, ctx, picker, "Keep " + (c ? c.name : nice(cid)));
        body.append(node);
      });
      if (drawn.length) y += ch + 10;
      y += 8;
    }
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  function customsPanel(view, ctx, hot, picker) {
    const c = obj(view.customs);
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Customs Track and Gold Wheel" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Customs Track" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: `Discovery Level ${num(c.discovery, "?")} · Bribe Cost ${num(c.bribe, "?")}` }));
    const end = num(c.track_end, 15), track = num(c.track, 0);
    const cw = Math.min(29, (PW - 24) / (end + 1));
    for (let i = 0; i <= end; i++) {
      const x = 12 + i * cw, here = i === track;
      body.append(S("rect", { x, y: 32, width: cw - 2, height: 44, rx: 4, fill: here ? "#1f3b63" : (i < track ? "#d9d2c2" : "#f4efe4"), stroke: "#8b7a5a" }));
      const disc = here ? num(c.discovery, TRACK.discovery[i]) : TRACK.discovery[i];
      const bribe = here ? num(c.bribe, TRACK.bribe[i]) : TRACK.bribe[i];
      body.append(S("text", { x: x + cw / 2 - 1, y: 51, "text-anchor": "middle", class: "track-num" + (here ? " here" : ""), text: disc === undefined ? "" : disc }));
      body.append(S("text", { x: x + cw / 2 - 1, y: 69, "text-anchor": "middle", class: "track-num small" + (here ? " here" : ""), text: bribe === undefined ? "" : "$" + bribe }));
      if (TRACK.new_officer.includes(i)) body.append(S("path", { d: `M${x + cw - 9} 36 l3 -6 l3 6 Z`, fill: here ? "#fff" : "#111" }));
      if (i === end) body.append(S("text", { x: x + cw / 2 - 1, y: 88, "text-anchor": "middle", class: "track-num", text: "END" }));
    }
    body.append(S("text", { x: 12, y: 102, class: "panel-small", text: `top: Discovery Level · bottom: Bribe Cost · ▲ a new officer · space ${track + 1} of ${end + 1}` }));
    // the Gold Wheel
    const size = Math.max(1, num(c.wheel_size, 8)), wheel = num(c.wheel, 0);
    const cx = 70, cy = 176, R = 50;
    body.append(S("text", { x: 12, y: 118, class: "panel-label", text: "Gold Wheel" }));
    for (let i = 0; i < size; i++) {
      const a0 = -Math.PI / 2 + (2 * Math.PI * i) / size, a1 = a0 + (2 * Math.PI) / size;
      const d = `M${cx} ${cy} L${cx + R * Math.cos(a0)} ${cy + R * Math.sin(a0)} A${R} ${R} 0 0 1 ${cx + R * Math.cos(a1)} ${cy + R * Math.sin(a1)} Z`;
      body.append(S("path", { d, fill: i === wheel ? "#d6a530" : (i === 0 ? "#efe1b8" : "#f7f1e1"), stroke: "#8b7a5a", "stroke-width": 1.5 }));
      const am = (a0 + a1) / 2;
      body.append(S("text", { x: cx + R * 0.68 * Math.cos(am), y: cy + R * 0.68 * Math.sin(am) + 4, "text-anchor": "middle", class: "wheel-num", text: i === 0 ? "S" : i }));
    }
    body.append(S("title", { text: `Gold Wheel: space ${wheel} of ${size} (S = START; passing it moves the Customs Track)` }));
    const officers = arr(view.officers).filter((o) => o && typeof o === "object");
    const waiting = officers.filter((o) => !o.at).length;
    const facts = [
      `Customs Officers on the board: ${officers.length - waiting}, waiting: ${waiting}`,
      `Bribed: ${officers.filter((o) => num(o.bribed_by, -1) >= 0).map((o) => "officer " + o.id + " by seat " + o.bribed_by).join(", ") || "none"}`,
      `Seized in the Customs House: ${arr(view.goods).filter((g) => g && g.where === "warehouse").length} goods`,
      `Secrets deck: ${num(view.secrets_deck, "?")} · Bank: ${num(view.bank, "?")} Gold`,
    ];
    facts.forEach((t, i) => body.append(S("text", { x: 140, y: 146 + i * 20, class: "panel-small", text: t })));
    const y = 236;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  function secretsPanel(view, ctx, hot, picker) {
    const mine = arr(view.your_secrets);
    const PW = 500, cw = 154, ch = 150;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Your Secrets" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Your Secrets" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: "only you see these" }));
    mine.forEach((sid, i) => {
      const s = SECRETS[sid];
      const node = card(10 + (i % 3) * (cw + 6), 34 + Math.floor(i / 3) * (ch + 8), cw, ch, "#4a2c2c", s ? s.name : nice(sid), "", s ? s.text : "", s ? nice(s.timing) : "Secret");
      makeHot(node, "x:" + sid, hot, ctx, picker, "Play " + (s ? s.name : nice(sid)));
      body.append(node);
    });
    if (!mine.length) body.append(S("text", { x: 12, y: 50, class: "panel-small", text: "You hold no Secrets." }));
    const y = mine.length ? 34 + Math.ceil(mine.length / 3) * (ch + 8) + 4 : 64;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  // set-up: the ships and storehouses still to choose, when a choice is open
  function choicesPanel(view, ctx, hot, picker) {
    const ships = arr(view.ships_to_choose).filter((id) => hot.has("s:" + id));
    const stores = arr(view.storehouses_to_choose).filter((id) => hot.has("h:" + id));
    if (!ships.length && !stores.length) return null;
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Choose a ship or storehouse" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: ships.length ? "Choose a ship" : "Choose a storehouse" }));
    let x = 12, y = 42, rowH = 0;
    for (const [id, def, key, cell] of ships.map((id) => [id, SHIPS[id], "s:" + id, 16]).concat(stores.map((id) => [id, STORES[id], "h:" + id, 16]))) {
      const rows = def ? def.hold : ["#"];
      const w = Math.max(96, (def ? def.name : String(id)).length * 7.6 + 8, Math.max(...rows.map((r) => r.length)) * cell + 8);
      if (x + w > PW - 8) { x = 12; y += rowH + 12; rowH = 0; }
      const g = S("g", { class: "choice", transform: `translate(${x},${y})` });
      g.append(S("rect", { x: -4, y: -4, width: w, height: rows.length * cell + 40, rx: 6, fill: "#fffaf0", stroke: "#b5a98e", class: "card-rect" }));
      g.append(S("text", { x: 2, y: 10, class: "panel-label", text: def ? def.name : nice(id) }));
      if (def && def.at) g.append(S("text", { x: 2, y: 24, class: "panel-small", text: nameOf(def.at) }));
      drawHold(g, 2, def && def.at ? 30 : 18, rows, [], cell, view, ctx, hot, picker);
      makeHot(g, key, hot, ctx, picker, def ? def.name : nice(id));
      body.append(g);
      rowH = Math.max(rowH, rows.length * cell + 40);
      x += w + 10;
    }
    y += rowH + 8;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  const STYLE = `
.cornish { display: flex; flex-direction: column; gap: .5rem; }
.cornish .cs-panels { display: flex; flex-wrap: wrap; gap: .5rem; }
.cornish .cs-panels > svg { flex: 0 1 calc(50% - .25rem); min-width: 0; }
@media (max-width: 700px) { .cornish .cs-panels > svg { flex-basis: 100%; } }
.cornish .cs-pick { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; background: #fff1c9; border-left: 4px solid #d6a530; padding: .4rem; border-radius: .4rem; }
.cornish .cs-pick[hidden] { display: none; }
.cornish .cs-map { overflow-x: auto; width: 0; min-width: 100%; }
@media (max-width: 700px) { .cornish .cs-map > svg { min-width: 720px; } }
.cornish svg text { font-family: inherit; }
.cornish .water { fill: #4f7f9c; font-size: 17px; font-style: italic; }
.cornish .sea-name { fill: #2e5870; font-size: 12.5px; font-style: italic; }
.cornish .merchant-name { fill: #3b2f1e; font-size: 14px; font-weight: 700; }
.cornish .loc-name { fill: #2a2118; font-size: 14px; paint-order: stroke; stroke: #ece3c8; stroke-width: 3px; }
.cornish .loc-name.town { font-weight: 700; font-size: 15px; }
.cornish .loc-size { fill: #2a2118; font-size: 17px; font-weight: 700; }
.cornish .loc-risk { fill: #fff; font-size: 12px; font-weight: 700; }
.cornish .map-head { fill: #1d3a4c; font-size: 16px; font-weight: 600; }
.cornish .map-sub { fill: #8a3b00; font-size: 14px; font-weight: 600; }
.cornish .small { fill: #3b3326; font-size: 12px; }
.cornish .goods-size { font-weight: 700; }
.cornish .ship-seat { fill: #222; font-size: 9px; font-weight: 700; }
.cornish .warehouse-text { fill: #fff; font-size: 12px; font-weight: 600; }
.cornish .panel-name { fill: #fff; font-size: 16px; font-weight: 700; }
.cornish .panel-tags { fill: #fff; font-size: 13px; }
.cornish .panel-label { fill: #2a2118; font-size: 13px; font-weight: 700; }
.cornish .panel-label.big { font-size: 16px; }
.cornish .panel-small { fill: #5f574a; font-size: 12px; }
.cornish .stat-letter { fill: #fff; font-size: 12px; font-weight: 700; }
.cornish .stat-value { fill: #2a2118; font-size: 17px; font-weight: 700; }
.cornish .piece-size { fill: #1d1a16; font-weight: 700; }
.cornish .chip-name { fill: #2a2118; font-size: 12.5px; }
.cornish .card-head { fill: #fff; font-size: 11px; font-weight: 700; }
.cornish .card-title { fill: #2a2118; font-size: 12.5px; font-weight: 700; }
.cornish .card-sub { fill: #5f574a; font-size: 10.5px; font-style: italic; }
.cornish .card-text { fill: #3b3326; font-size: 9.5px; }
.cornish .card-cost { fill: #7a5a12; font-size: 11px; font-weight: 700; }
.cornish .track-num { fill: #3b3326; font-size: 10px; font-weight: 700; }
.cornish .track-num.here { fill: #fff; font-size: 14px; }
.cornish .track-num.small { font-size: 9px; }
.cornish .track-num.here.small { font-size: 11px; }
.cornish .wheel-num { fill: #3b3326; font-size: 11px; font-weight: 700; }
.cornish .hot > .node-shape, .cornish g.hot > .card-rect { stroke: #e0a100 !important; stroke-width: 5 !important; }
.cornish .loc.hot .node-shape { filter: drop-shadow(0 0 4px #f5b800); }
.cornish .clickable { cursor: pointer; }
.cornish .clickable:hover, .cornish .clickable:focus { filter: drop-shadow(0 0 5px #e0a100); }
.cornish .piece.hot rect, .cornish .goods.hot rect { stroke: #e0a100; stroke-width: 3; }
.cornish .char-chip.hot rect:first-child { stroke: #e0a100; stroke-width: 4; }
`;
  function ensureStyle() {
    if (document.getElementById("cornish-style")) return;
    document.head.append(FT.el("style", { id: "cornish-style", text: STYLE }));
  }

  FT.register("cornish-smuggler", {
    label,
    draw(root, view, ctx) {
      ensureStyle();
      view = obj(view);
      ctx = Object.assign({}, ctx, { view });
      const legal = ctx.legal instanceof Set ? Array.from(ctx.legal) : arr(ctx.legal);
      const hot = byTarget(legal);
      const wrap = FT.el("div", { class: "cornish" });
      const pickBox = FT.el("div", { class: "cs-pick", role: "group", "aria-label": "Choose a move", hidden: true });
      const picker = chooser(pickBox, ctx);
      wrap.append(pickBox, FT.el("div", { class: "cs-map" }, drawMap(view, ctx, hot, picker)));
      const panels = FT.el("div", { class: "cs-panels" });
      const choices = choicesPanel(view, ctx, hot, picker);
      if (choices) panels.append(choices);
      // your own panel first, then the others in seat order
      const n = arr(view.players).length;
      const me = typeof ctx.seat === "number" && ctx.seat < n ? ctx.seat : 0;
      for (let k = 0; k < n; k++) panels.append(playerPanel(view, ctx, (me + k) % n, hot, picker));
      if ("your_secrets" in view) panels.append(secretsPanel(view, ctx, hot, picker));
      panels.append(charactersPanel(view, ctx, hot, picker), customsPanel(view, ctx, hot, picker));
      wrap.append(panels);
      root.replaceChildren(wrap);
    },
  });
})();
