/* Written for holdem-env (not part of the ACPC server code): reads an ACPC log with the
   reference's own game.c and prints, per STATE line, "OK <hand> <v0>|<v1>|..." (each
   position's value by the reference's valueOfState) or "BAD <line>" when its readState
   refuses the line or the hand it describes is not finished.
   usage: check_log GAME_FILE LOG_FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"

int main( int argc, char **argv )
{
  FILE *file;
  Game *game;
  State state;
  char line[ MAX_LINE_LEN ];
  int p;

  if( argc != 3 ) {
    fprintf( stderr, "usage: check_log GAME_FILE LOG_FILE\n" );
    return EXIT_FAILURE;
  }
  file = fopen( argv[ 1 ], "r" );
  if( file == NULL || ( game = readGame( file ) ) == NULL ) {
    fprintf( stderr, "cannot read game %s\n", argv[ 1 ] );
    return EXIT_FAILURE;
  }
  fclose( file );
  file = fopen( argv[ 2 ], "r" );
  if( file == NULL ) {
    fprintf( stderr, "cannot read log %s\n", argv[ 2 ] );
    return EXIT_FAILURE;
  }
  while( fgets( line, MAX_LINE_LEN, file ) ) {
    if( strncmp( line, "STATE", 5 ) != 0 ) {
      continue;
    }
    if( readState( line, game, &state ) < 0 || !stateFinished( &state ) ) {
      printf( "BAD %s", line );
      continue;
    }
    printf( "OK %u ", state.handId );
    for( p = 0; p < game->numPlayers; ++p ) {
      printf( p ? "|%.6f" : "%.6f", valueOfState( game, &state, p ) );
    }
    printf( "\n" );
  }
  fclose( file );
  free( game );
  return EXIT_SUCCESS;
}
