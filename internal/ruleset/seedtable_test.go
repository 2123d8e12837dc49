package ruleset

// seedTable is the card table of seed 000 (seeds/000_dc6deb805c0c7770.txt),
// copied verbatim minus the Effect column, so the test checks the data file
// against the rule text rather than against itself.
const seedTable = `Name	Value	Suit	Colour	Type(s)
Ace of Hearts	1	Hearts	Red	Special
2 of Hearts	2	Hearts	Red	-
3 of Hearts	3	Hearts	Red	-
4 of Hearts	4	Hearts	Red	-
5 of Hearts	5	Hearts	Red	-
6 of Hearts	6	Hearts	Red	-
7 of Hearts	7	Hearts	Red	-
8 of Hearts	8	Hearts	Red	-
9 of Hearts	9	Hearts	Red	-
10 of Hearts	10	Hearts	Red	-
Jack of Hearts	11	Hearts	Red	Special
Queen of Hearts	12	Hearts	Red	Special
King of Hearts	12	Hearts	Red	Special
Ace of Diamonds	1	Diamonds	Red	Special
2 of Diamonds	2	Diamonds	Red	-
3 of Diamonds	3	Diamonds	Red	-
4 of Diamonds	4	Diamonds	Red	-
5 of Diamonds	5	Diamonds	Red	-
6 of Diamonds	6	Diamonds	Red	-
7 of Diamonds	7	Diamonds	Red	-
8 of Diamonds	8	Diamonds	Red	-
9 of Diamonds	9	Diamonds	Red	-
10 of Diamonds	10	Diamonds	Red	-
Jack of Diamonds	11	Diamonds	Red	Special
Queen of Diamonds	12	Diamonds	Red	Special
King of Diamonds	12	Diamonds	Red	Special
Ace of Spades	1	Spades	Black	Special
2 of Spades	2	Spades	Black	-
3 of Spades	3	Spades	Black	-
4 of Spades	4	Spades	Black	-
5 of Spades	5	Spades	Black	-
6 of Spades	6	Spades	Black	-
7 of Spades	7	Spades	Black	-
8 of Spades	8	Spades	Black	-
9 of Spades	9	Spades	Black	-
10 of Spades	10	Spades	Black	-
Jack of Spades	11	Spades	Black	Special
Queen of Spades	12	Spades	Black	Special
King of Spades	12	Spades	Black	Special
Ace of Clubs	1	Clubs	Black	Special
2 of Clubs	2	Clubs	Black	-
3 of Clubs	3	Clubs	Black	-
4 of Clubs	4	Clubs	Black	-
5 of Clubs	5	Clubs	Black	-
6 of Clubs	6	Clubs	Black	-
7 of Clubs	7	Clubs	Black	-
8 of Clubs	8	Clubs	Black	-
9 of Clubs	9	Clubs	Black	-
10 of Clubs	10	Clubs	Black	-
Jack of Clubs	11	Clubs	Black	Special
Queen of Clubs	12	Clubs	Black	Special
King of Clubs	12	Clubs	Black	Special
Red Joker	-	-	Red	Special
Black Joker	-	-	Black	Special
`
